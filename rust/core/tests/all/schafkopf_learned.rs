//! Learned Schafkopf policies: imitation of the `rules` agent from its self-play log beats the
//! most-taken-action baseline, and the `net:DIR` agent (argmax or sampled) plays whole matches
//! legally.

use cfrkit_core::arena::log::LogWriter;
use cfrkit_core::arena::quiet;
use cfrkit_core::games::schafkopf::agents::rules_agent::RulesAgent;
use cfrkit_core::games::schafkopf::agents::{Agent, Schafkopf};
use cfrkit_core::games::schafkopf::learned::SchafkopfPolicies;
use cfrkit_core::games::schafkopf::learned::{log_likelihood, move_model};
use cfrkit_core::games::schafkopf::pimc::worlds::Worlds;
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::games::schafkopf::{Deal, Game, Phase, Rules, View};
use cfrkit_core::learn::{imitate, TrainSettings};
use cfrkit_core::search::Evidence;
use cfrkit_core::trick::matches::{log_header, run_match, MatchSettings};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::path::Path;

#[test]
fn imitating_rules_and_playing_the_policy() {
    let scratch = tempfile::Builder::new().prefix("cfrkit-sk-learned-").tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("rules.jsonl");
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 4, threads: 2, ..MatchSettings::default() };
    let log = LogWriter::create(&path, &log_header(vec!["rules".into(), "rules".into()], &s)).unwrap();
    run_match(rules.as_ref(), rules.as_ref(), 1500, &s, Some(&log), &mut quiet).unwrap();
    log.finish().unwrap();
    let settings = TrainSettings { hidden: vec![64, 64], epochs: 6, batch: 128, seed: 1, ..TrainSettings::default() };
    let out = dir.join("policy");
    let report = imitate::<SchafkopfPolicies>(&[path], &out, &settings, false, &mut |_, _, _| Ok(())).unwrap();
    let sauspiel = report.iter().find(|(k, _)| k == "cards-sauspiel-defender").map(|x| &x.1).unwrap();
    assert!(sauspiel.heldout_samples > 500, "{report:?}");
    // The seed's rule-based player draws among its options at random, which caps what any
    // imitation can reach.
    assert!(sauspiel.heldout_accuracy > sauspiel.baseline_accuracy + 0.08, "{sauspiel:?}");
    let net = registry::parse(&format!("net:{}", out.display())).unwrap();
    let r = run_match(net.as_ref(), rules.as_ref(), 30, &MatchSettings { seed: 8, ..s }, None, &mut quiet).unwrap();
    assert_eq!(r.pair.games, 60);
    // The declare-value network, and the default agent (likely-value declaration) beats random
    // outside the interval, as does the plain declarer.
    let value = report.iter().find(|(k, _)| k == "declare-value").map(|x| &x.1).expect("a declare-value network");
    assert!(value.heldout_samples > 500 && value.heldout_accuracy > 0.5, "{value:?}");
    let plain = registry::parse(&format!("net:{},likely_value=0", out.display())).unwrap();
    assert_eq!(plain.name(), format!("net:{},likely_value=0", out.display()));
    let random = registry::parse("random").unwrap();
    for agent in [&net, &plain] {
        let r = run_match(agent.as_ref(), random.as_ref(), 150, &MatchSettings { seed: 9, ..s }, None, &mut quiet);
        let a = r.unwrap().pair.a;
        assert!(a.mean - a.ci95 > 0.0, "{} vs random: {a:?}", agent.name());
    }
    sampled_checks(&out);
    inference_checks(&out);
    hybrid_checks(&out);
    // A Skat policy is not a Schafkopf one.
    let e = cfrkit_core::games::skat::registry::parse(&format!("net:{}", out.display())).err().unwrap().to_string();
    assert!(e.contains("not of skat"), "{e}");
}

/// `net:DIR,sample=1` draws its action from the policy: legal whole matches, the same moves for
/// the same random stream, and not always the argmax's.
fn sampled_checks(policy: &Path) {
    let dir = policy.display();
    let sampled = registry::parse(&format!("net:{dir},sample=1")).unwrap();
    let argmax = registry::parse(&format!("net:{dir}")).unwrap();
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 3, threads: 2, ..MatchSettings::default() };
    let r = run_match(sampled.as_ref(), rules.as_ref(), 10, &s, None, &mut quiet).unwrap();
    assert_eq!(r.pair.games, 20);
    let (mut moves, mut differ) = (0, 0);
    for i in 0..6 {
        let mut g = Game::new(&Deal::for_game(9, i), Rules::SCHAFKOPFRL);
        let mut rng = Pcg64::seed_from_u64(i);
        while let Some(p) = g.player() {
            let view = View::new(&g, p);
            let a = sampled.act(&view, &mut rng.clone()).unwrap();
            assert_eq!(a, sampled.act(&view, &mut rng.clone()).unwrap());
            differ += usize::from(a != argmax.act(&view, &mut rng.clone()).unwrap());
            moves += 1;
            let _ = sampled.act(&view, &mut rng).unwrap(); // advance the stream
            g.apply(a).unwrap();
        }
    }
    assert!(differ > 0 && differ < moves, "{differ} of {moves} sampled moves unlike the argmax's");
}

/// PIMC with inference: the true deal is likelier under the policy than most uniform worlds
/// (in the tricks of games with a declarer), and the agent plays legal matches.
fn inference_checks(policy: &Path) {
    let spec = format!("net:{}", policy.display());
    let model = Evidence::new(move_model(&spec).unwrap(), &spec, 0.1).unwrap();
    let (mut above, mut total) = (0, 0);
    for i in 0..60 {
        let mut g = Game::new(&Deal::for_game(31, i), Rules::SCHAFKOPFRL);
        let mut rng = Pcg64::seed_from_u64(i);
        while let Some(p) = g.player() {
            if g.phase() == Phase::Tricks && g.tricks_done() >= 3 {
                if g.declarer().is_some() {
                    let truth = log_likelihood(&model, &g, p).unwrap();
                    let worlds = Worlds::new(&View::new(&g, p)).unwrap();
                    let mut sampled: Vec<f64> = (0..40)
                        .map(|_| log_likelihood(&model, &worlds.sample(&mut rng).unwrap(), p).unwrap())
                        .collect();
                    sampled.sort_by(f64::total_cmp);
                    above += usize::from(truth > sampled[20]);
                    total += 1;
                }
                break;
            }
            g.apply(RulesAgent.act(&View::new(&g, p), &mut rng).unwrap()).unwrap();
        }
    }
    eprintln!("schafkopf inference: true deal above the median in {above} of {total}");
    assert!(total >= 20 && above * 10 >= total * 7, "true deal above the median in {above} of {total}");
    let agent = registry::parse(&format!("pimc:worlds=4,inference={spec}")).unwrap();
    assert_eq!(agent.name(), format!("pimc:worlds=4,inference={spec}"));
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 6, threads: 2, ..MatchSettings::default() };
    assert_eq!(run_match(agent.as_ref(), rules.as_ref(), 2, &s, None, &mut quiet).unwrap().pair.games, 4);
    // The random agent is a model too: every legal action equally likely.
    let random = Evidence::new(move_model("random").unwrap(), "random", 0.5).unwrap();
    let mut g = Game::new(&Deal::for_game(32, 0), Rules::SCHAFKOPFRL);
    let mut rng = Pcg64::seed_from_u64(0);
    let mut expected = 0.0;
    while let Some(p) = g.player() {
        let view = View::new(&g, p);
        let legal = view.legal_actions().len();
        if p != 0 && legal > 1 {
            expected -= (legal as f64).ln();
        }
        g.apply(RulesAgent.act(&view, &mut rng).unwrap()).unwrap();
    }
    let got = log_likelihood(&random, &g, 0).unwrap();
    assert!((got - expected).abs() < 1e-9 && expected < 0.0, "{got} {expected}");
    let agent = registry::parse("pimc:worlds=4,inference=random,pool=8").unwrap();
    assert_eq!(agent.name(), "pimc:worlds=4,inference=random,pool=8");
    assert_eq!(run_match(agent.as_ref(), rules.as_ref(), 1, &s, None, &mut quiet).unwrap().pair.games, 2);
    let e = registry::parse("pimc:inference=rules").err().unwrap().to_string();
    assert!(e.contains("net:DIR") && e.contains("random"), "{e}");
}

/// The hybrid agent decides as the policy before its trick and as PIMC from it on.
fn hybrid_checks(policy: &Path) {
    let dir = policy.display();
    let hybrid = registry::parse(&format!("hybrid:net={dir},worlds=4")).unwrap();
    assert_eq!(hybrid.name(), format!("hybrid:net={dir},from=3,worlds=4"));
    let net = registry::parse(&format!("net:{dir}")).unwrap();
    let pimc = registry::parse("pimc:worlds=4").unwrap();
    let mut seen = [0, 0];
    for i in 0..6 {
        let mut g = Game::new(&Deal::for_game(8, i), Rules::SCHAFKOPFRL);
        let rng = Pcg64::seed_from_u64(i);
        while let Some(p) = g.player() {
            let view = View::new(&g, p);
            let late = g.phase() == Phase::Tricks && g.tricks_done() >= 2;
            let expected = if late { &pimc } else { &net };
            let a = hybrid.act(&view, &mut rng.clone()).unwrap();
            assert_eq!(a, expected.act(&view, &mut rng.clone()).unwrap());
            seen[usize::from(late)] += 1;
            g.apply(a).unwrap();
            if g.tricks_done() >= 4 {
                break;
            }
        }
    }
    assert!(seen[0] > 40 && seen[1] > 20, "{seen:?}");
    assert!(registry::parse(&format!("hybrid:net={dir},from=9")).err().unwrap().to_string().contains("1 to 8"));
}

/// Every card-play symmetry is one of the game: a whole game replayed on the relabelled deal
/// with the relabelled declarations and cards is legal move for move, and at each card decision
/// its features and legal cards are the symmetry's image of the original's. Four games of each
/// group (Sauspiel, Wenz, each Solo), declared by the first seat able to, the rest random.
#[test]
fn card_play_symmetries_relabel_whole_games() {
    use cfrkit_core::games::schafkopf::agents::RandomAgent;
    use cfrkit_core::games::schafkopf::features::{card_play_group, card_play_symmetries, features};
    use cfrkit_core::games::schafkopf::{Action, Declaration};
    use rand::Rng;
    let groups = card_play_symmetries();
    assert_eq!(groups.iter().map(Vec::len).collect::<Vec<_>>(), [6, 6, 2, 6, 2, 2]);
    let wanted = |g: usize| -> Vec<Declaration> {
        match g {
            0 => (0..4).filter(|&s| s != 1).map(Declaration::Sauspiel).collect(),
            1 => vec![Declaration::Wenz],
            _ => vec![Declaration::Solo(g as u8 - 2)],
        }
    };
    let mut rng = Pcg64::seed_from_u64(9);
    let mut seen = [0usize; 6];
    for g in 0..400 {
        let target = g % 6;
        if seen[target] == 4 {
            continue;
        }
        let deal = Deal::random(&mut rng);
        let mut game = Game::new(&deal, Rules::default());
        while !game.finished() {
            let view = View::new(&game, game.player().unwrap());
            let legal = view.legal_actions();
            let want = wanted(target).into_iter().map(Action::Declare).find(|a| legal.contains(a));
            let action = match want {
                Some(a) => a,
                None if view.phase() == Phase::Bidding => Action::Declare(Declaration::Pass),
                None => Agent::<Schafkopf>::act(&RandomAgent, &view, &mut rng).unwrap(),
            };
            game.apply(action).unwrap();
        }
        let Some(group) = card_play_group(&features(&View::new(&game, 0))) else { continue };
        if group != target {
            continue;
        }
        seen[group] += 1;
        let symmetry = &groups[group][rng.gen_range(0..groups[group].len())];
        let card = |c: u8| symmetry.action(c as u16) as u8;
        // The suits' images, read off the Aces (trumps only in the trump suit, which stays).
        let suit = |s: u8| card(28 + s) % 4;
        let set = |s: u64| cfrkit_core::cards::iter(s).fold(0u64, |m, c| m | 1 << card(c));
        let image_deal = Deal::new(deal.hands.map(set), deal.dealer).unwrap();
        let (mut a, mut b) = (Game::new(&deal, Rules::default()), Game::new(&image_deal, Rules::default()));
        for &(seat, action) in &game.history() {
            if a.phase() == Phase::Tricks {
                let (va, vb) = (View::new(&a, seat), View::new(&b, seat));
                assert_eq!(features(&vb), symmetry.apply(&features(&va)), "game {g}, group {group}");
                assert_eq!(vb.legal_cards(), set(va.legal_cards()));
            }
            let image = match action {
                Action::Card(c) => Action::Card(card(c)),
                Action::Declare(Declaration::Sauspiel(s)) => Action::Declare(Declaration::Sauspiel(suit(s))),
                Action::Declare(Declaration::Solo(s)) => Action::Declare(Declaration::Solo(suit(s))),
                other => other,
            };
            a.apply(action).unwrap();
            b.apply(image).unwrap_or_else(|e| panic!("game {g}: {image:?} refused: {e}"));
        }
        assert_eq!(a.returns(), b.returns());
    }
    assert_eq!(seen, [4; 6]);
}
