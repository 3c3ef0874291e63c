//! Learned Skat policies: imitation of the `rules` agent from its self-play log, reproducible
//! for a seed; the `net:DIR` agent plays whole matches legally; bad policy directories are
//! refused.

use cfrkit_core::arena::log::LogWriter;
use cfrkit_core::arena::quiet;
use cfrkit_core::games::skat::agents::rules_agent::RulesAgent;
use cfrkit_core::games::skat::agents::{Agent, Skat};
use cfrkit_core::games::skat::learned::{declarable_limit, kind_of, log_likelihood, move_model, Model};
use cfrkit_core::games::skat::learned::{SkatPolicies, KINDS};
use cfrkit_core::games::skat::pimc::{agent as pimc, worlds::Worlds};
use cfrkit_core::games::skat::registry;
use cfrkit_core::games::skat::{features::legal_ids, Deal, Game, Phase, View};
use cfrkit_core::games::skat::{Action, Call};
use cfrkit_core::learn::PlayModel;
use cfrkit_core::learn::TrainSettings;
use cfrkit_core::learn::{imitate, samples_from_logs};
use cfrkit_core::search::{Evidence, Inference};
use cfrkit_core::search::{Pimc, Sampling};
use cfrkit_core::spec::AgentOptions;
use cfrkit_core::trick::matches::{log_header, run_match, MatchSettings};
use cfrkit_core::Error;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tempfile::TempDir;

/// A scratch directory, removed when dropped.
fn temp(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("cfrkit-learned-{name}-")).tempdir().unwrap()
}

/// A log of `deals` deals of `rules` against itself.
fn rules_log(dir: &Path, deals: u64) -> PathBuf {
    seeded_rules_log(dir, deals, 11)
}

/// A log of `deals` deals of `rules` against itself, deals and choices from `seed`.
fn seeded_rules_log(dir: &Path, deals: u64, seed: u64) -> PathBuf {
    let path = dir.join(format!("rules-{seed}.jsonl"));
    let rules = registry::parse("rules").unwrap();
    let log = LogWriter::create(
        &path,
        &log_header(vec!["rules".into(), "rules".into()], &MatchSettings::<Skat> { seed, ..Default::default() }),
    )
    .unwrap();
    let s = MatchSettings { seed, threads: 2, ..MatchSettings::default() };
    run_match(rules.as_ref(), rules.as_ref(), deals, &s, Some(&log), &mut quiet).unwrap();
    log.finish().unwrap();
    path
}

/// The held-out split goes by deal: the six games of a deal (its seatings) share one id, the
/// same deal in another log of the same seed keeps it, and another seed's deals do not.
#[test]
fn samples_of_one_deal_share_its_id() {
    let scratch = temp("deals");
    let dir = scratch.path();
    let ids = |paths: &[PathBuf]| -> Vec<std::collections::BTreeSet<u64>> {
        let samples = samples_from_logs::<SkatPolicies>(paths, &[]).unwrap();
        let all = samples.iter().flat_map(|s| s.deal.iter().copied()).collect();
        let bid = samples[KINDS.iter().position(|k| k.0 == "bid").unwrap()].deal.iter().copied().collect();
        vec![all, bid]
    };
    let eleven = seeded_rules_log(dir, 12, 11);
    let once = ids(std::slice::from_ref(&eleven));
    // At most one id per deal (12), though the log holds 72 games; thrown-in deals have none.
    assert!(once[0].len() <= 12 && once[0].len() >= 9, "{:?}", once[0]);
    assert!(once[1].is_subset(&once[0]));
    let twice = ids(&[eleven.clone(), eleven.clone()]);
    assert_eq!(once, twice);
    let other = ids(&[seeded_rules_log(dir, 12, 12)]);
    assert!(other[0].is_disjoint(&once[0]), "{other:?} {once:?}");
}

/// Logs too small to train any decision kind are refused, and no policy (nor its directory) is
/// left behind; resuming a directory that holds no policy is refused.
#[test]
fn nothing_to_train_or_to_resume_is_refused() {
    let scratch = temp("tiny");
    let dir = scratch.path();
    let log = seeded_rules_log(dir, 1, 11);
    let settings = TrainSettings { hidden: vec![8], epochs: 1, ..TrainSettings::default() };
    let out = dir.join("policy");
    let quiet_run = |out: &Path, resume: bool| {
        imitate::<SkatPolicies>(std::slice::from_ref(&log), out, &settings, resume, &mut |_, _, _| Ok(()))
    };
    let e = quiet_run(&out, false).unwrap_err().to_string();
    assert!(e.contains("enough games to train a decision kind"), "{e}");
    assert!(!out.exists());
    let e = quiet_run(&dir.join("elsewhere"), true).unwrap_err().to_string();
    assert!(e.contains("resume") && e.contains("nothing to keep"), "{e}");
}

#[test]
fn imitating_rules_beats_the_frequency_baseline_and_is_reproducible() {
    let scratch = temp("imitate");
    let dir = scratch.path();
    let log = rules_log(dir, 400);
    let samples = samples_from_logs::<SkatPolicies>(std::slice::from_ref(&log), &[]).unwrap();
    let by_kind: Vec<(&str, usize)> = KINDS.iter().zip(&samples).map(|(k, s)| (k.0, s.len())).collect();
    assert!(by_kind.iter().filter(|k| k.1 > 1000).count() >= 3, "{by_kind:?}");
    let settings = TrainSettings { hidden: vec![64, 64], epochs: 8, batch: 128, seed: 3, ..TrainSettings::default() };
    let out = dir.join("policy");
    let report =
        imitate::<SkatPolicies>(std::slice::from_ref(&log), &out, &settings, false, &mut |_, _, _| Ok(())).unwrap();
    for (kind, r) in &report {
        if kind.starts_with("cards-") && r.heldout_samples > 500 {
            // `rules` plays a deal alike in all six seatings, so the split by deal leaves 400
            // distinct games (held out: 62–82% against baselines of 46–56%).
            assert!(r.heldout_accuracy > 0.55 && r.heldout_accuracy > r.baseline_accuracy + 0.1, "{kind}: {r:?}");
        }
    }
    assert!(report.iter().any(|(k, _)| k == "cards-suit-defender"), "{report:?}");
    // The same logs, settings and seed give the same networks, byte for byte.
    let small_dir = temp("small");
    let small = rules_log(small_dir.path(), 60);
    let quick = TrainSettings { epochs: 2, ..settings.clone() };
    let (a_dir, b_dir) = (temp("a"), temp("b"));
    let (a, b) = (a_dir.path(), b_dir.path());
    imitate::<SkatPolicies>(std::slice::from_ref(&small), a, &quick, false, &mut |_, _, _| Ok(())).unwrap();
    imitate::<SkatPolicies>(std::slice::from_ref(&small), b, &quick, false, &mut |_, _, _| Ok(())).unwrap();
    let file = "cards-suit-defender.safetensors";
    assert_eq!(std::fs::read(a.join(file)).unwrap(), std::fs::read(b.join(file)).unwrap());
    resume_checks(&small, a, &quick);
    // Some kinds only; an unknown kind is refused naming the game's.
    let bidding = TrainSettings { kinds: vec!["bid".into(), "declare".into()], ..quick.clone() };
    let some =
        imitate::<SkatPolicies>(std::slice::from_ref(&small), temp("kinds").path(), &bidding, false, &mut |_, _, _| {
            Ok(())
        });
    assert_eq!(some.unwrap().iter().map(|k| k.0.as_str()).collect::<Vec<_>>(), ["bid", "declare"]);
    let wrong = TrainSettings { kinds: vec!["cards".into()], ..quick.clone() };
    let e =
        imitate::<SkatPolicies>(std::slice::from_ref(&small), temp("x").path(), &wrong, false, &mut |_, _, _| Ok(()));
    let e = e.unwrap_err().to_string();
    assert!(e.contains("\"cards\"") && e.contains("cards-suit-defender"), "{e}");

    // The agent plays whole matches legally (the match loop checks every action).
    let net = registry::parse(&format!("net:{}", out.display())).unwrap();
    assert_eq!(net.name(), format!("net:{}", out.display()));
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 99, threads: 2, ..MatchSettings::default() };
    let r = run_match(net.as_ref(), rules.as_ref(), 30, &s, None, &mut quiet).unwrap();
    assert_eq!(r.pair.games, 180);
    let sampled = registry::parse(&format!("net:{},sample=1", out.display())).unwrap();
    run_match(sampled.as_ref(), rules.as_ref(), 10, &s, None, &mut quiet).unwrap();
    default_agent_checks(&out);

    // Bad directories, options and descriptions are refused with what is wrong.
    for (spec, want) in [
        ("net:/nonexistent/policy".to_string(), "model.json"),
        (format!("net:{},sample=2", out.display()), "net sample: \"2\""),
        ("net:".to_string(), "net"),
    ] {
        let e = registry::parse(&spec).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{spec}: {e}");
    }
    inference_checks(&out);
    hybrid_checks(&out);
    percentile_checks(&log, &out, &samples);
    likely_value_checks(&out, &report);

    std::fs::write(a.join("model.json"), "{\"format\": \"other\"}").unwrap();
    let e = registry::parse(&format!("net:{}", a.display())).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("not a cfrkit policy"), "{e}");
    std::fs::write(b.join(file), b"garbage").unwrap();
    assert!(registry::parse(&format!("net:{}", b.display())).is_err());
}

/// The default `net:DIR` agent (A-percentile bidding, likely-value declaration) beats `random`
/// outside the interval, where the plain argmax bidder of the same networks need not; neither
/// ever bids or holds above what its ten cards could declare.
fn default_agent_checks(policy: &Path) {
    let dir = policy.display();
    let default = registry::parse(&format!("net:{dir}")).unwrap();
    let argmax = registry::parse(&format!("net:{dir},bidding=argmax,likely_value=0")).unwrap();
    assert_eq!(argmax.name(), format!("net:{dir},bidding=argmax,likely_value=0"));
    let random = registry::parse("random").unwrap();
    let s = MatchSettings { seed: 9, threads: 2, ..MatchSettings::default() };
    let r = run_match(default.as_ref(), random.as_ref(), 100, &s, None, &mut quiet).unwrap();
    assert!(r.pair.diff.mean - r.pair.diff.ci95 > 0.0, "default net vs random: {:?}", r.pair.diff);
    // Against random's high bids: along games where random bids, each agent's calls stay under
    // the ceiling of its hand.
    let (mut checked, mut capped) = (0, 0);
    for i in 0..200 {
        let mut g = Game::new(&Deal::for_game(31, i));
        let mut rng = Pcg64::seed_from_u64(i);
        while g.phase() == Phase::Bidding {
            let Some(p) = g.player() else { break };
            let view = View::new(&g, p);
            let ceiling = declarable_limit(view.hand());
            for agent in [&default, &argmax] {
                let asked = match agent.act(&view, &mut Pcg64::seed_from_u64(0)).unwrap() {
                    Action::Call(Call::Bid(v)) => v,
                    Action::Call(Call::Hold) => view.bid(),
                    _ => 0,
                };
                assert!(asked <= ceiling, "deal {i}: {} calls {asked} over {ceiling}", agent.name());
                checked += 1;
            }
            capped += usize::from(view.bid() > ceiling);
            g.apply(random.act(&view, &mut rng).unwrap()).unwrap();
        }
    }
    assert!(checked > 300 && capped > 0, "{checked} calls, {capped} over a ceiling");
}

/// Games of deals `0..n` played by `rules` up to the fourth trick, each with the seat to play
/// (thrown-in deals left out).
fn positions(n: u64) -> Vec<(Game, u8)> {
    let rules = RulesAgent::default();
    let mut out = Vec::new();
    for i in 0..n {
        let mut g = Game::new(&Deal::for_game(77, i));
        let mut rng = Pcg64::seed_from_u64(i);
        while let Some(p) = g.player() {
            if g.phase() == Phase::Tricks && g.tricks_done() >= 3 {
                out.push((g, p));
                break;
            }
            g.apply(rules.act(&View::new(&g, p), &mut rng).unwrap()).unwrap();
        }
    }
    out
}

/// The max-bid network learns from every bidding decision; `percentile=A` bids up to the
/// A-percentile of its distribution: a higher A never stops earlier, and the agent plays legal
/// matches; a percentile needs a policy with the network.
fn percentile_checks(log: &Path, policy: &Path, samples: &[cfrkit_core::learn::Samples]) {
    let max_bid = KINDS.iter().position(|k| k.0 == "max-bid").unwrap();
    assert_eq!(samples[max_bid].len(), samples[0].len(), "one max-bid sample per bidding decision");
    let dir = policy.display();
    let low = registry::parse(&format!("net:{dir},percentile=0.05")).unwrap();
    let high = registry::parse(&format!("net:{dir},percentile=0.95")).unwrap();
    assert_eq!(high.name(), format!("net:{dir},percentile=0.95"));
    // Along rules games, at each bidding decision: if the cautious agent goes on, so does the
    // bold one; somewhere the bold one goes on where the cautious one passes.
    let rules = RulesAgent::default();
    let (mut bolder, mut decisions) = (0, 0);
    for i in 0..60 {
        let mut g = Game::new(&Deal::for_game(21, i));
        let mut rng = Pcg64::seed_from_u64(i);
        while g.phase() == Phase::Bidding {
            let Some(p) = g.player() else { break };
            let view = View::new(&g, p);
            let passes = |a: &dyn Agent<Skat>| a.act(&view, &mut Pcg64::seed_from_u64(0)).unwrap() == pass();
            let (cautious, bold) = (passes(low.as_ref()), passes(high.as_ref()));
            assert!(!bold || cautious, "deal {i}: the bold agent passes where the cautious one goes on");
            bolder += usize::from(cautious && !bold);
            decisions += 1;
            g.apply(rules.act(&view, &mut rng).unwrap()).unwrap();
        }
    }
    assert!(bolder > 0 && decisions > 100, "{bolder} of {decisions}");
    let s = MatchSettings { seed: 3, threads: 2, ..MatchSettings::default() };
    let r = run_match(high.as_ref(), low.as_ref(), 20, &s, None, &mut quiet).unwrap();
    assert_eq!(r.pair.games, 120);
    // Refused: a percentile out of range, on a policy without the network, for inference.
    let bids_only_dir = temp("bids-only");
    let bids_only = bids_only_dir.path();
    let settings = TrainSettings { hidden: vec![8], epochs: 1, kinds: vec!["bid".into()], ..TrainSettings::default() };
    imitate::<SkatPolicies>(&[log.to_path_buf()], bids_only, &settings, false, &mut |_, _, _| Ok(())).unwrap();
    for (spec, want) in [
        (format!("net:{dir},percentile=1"), "above 0 and below 1"),
        (format!("net:{dir},percentile=x"), "above 0 and below 1"),
        (format!("net:{},percentile=0.9", bids_only.display()), "max-bid network"),
        (format!("net:{},likely_value=1", bids_only.display()), "value networks"),
        (format!("net:{dir},likely_value=2"), "net likely_value"),
        (format!("net:{},bidding=argmax", bids_only.display()), "max-bid network"),
        (format!("net:{dir},bidding=argmax,percentile=0.5"), "not both"),
        (format!("pimc:inference=net:{dir},percentile=0.9"), "pimc option"),
    ] {
        let e = registry::parse(&spec).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{spec}: {e}");
    }
}

/// The declare-value network is a value network; `likely_value=1` declares, among the contracts
/// of policy probability at least 0.1, the one it values highest, and plays legal matches.
fn likely_value_checks(policy: &Path, report: &[(String, cfrkit_core::learn::TrainReport)]) {
    let value = &report.iter().find(|k| k.0 == "declare-value").expect("a declare-value network").1;
    assert!(value.heldout_samples > 50 && value.heldout_accuracy > 0.5, "{value:?}");
    let loaded = cfrkit_core::learn::Policy::load(policy, "skat", 561).unwrap();
    assert!(loaded.description.nets.iter().all(|n| n.value == (n.kind == "declare-value")));
    let spec = format!("net:{},likely_value=1", policy.display());
    let agent = registry::parse(&spec).unwrap();
    assert_eq!(agent.name(), spec);
    let rules = RulesAgent::default();
    let declare = KINDS.iter().position(|k| k.0 == "declare").unwrap();
    let mut checked = 0;
    for i in 0..300 {
        let mut g = Game::new(&Deal::for_game(8, i));
        let mut rng = Pcg64::seed_from_u64(i);
        while let Some(p) = g.player() {
            let view = View::new(&g, p);
            if g.phase() == Phase::Declare {
                let legal = legal_ids(&view);
                let f = cfrkit_core::games::skat::features::features(&view);
                let chosen = agent.act(&view, &mut rng).unwrap();
                let id = cfrkit_core::games::skat::features::action_id(chosen).unwrap();
                let (entry, net) = &loaded.nets[KINDS[declare].0];
                let logits = net.forward(&f);
                let logit = |id: usize| f64::from(logits[id - entry.action_offset]);
                let top = legal.iter().map(|&x| logit(x)).fold(f64::NEG_INFINITY, f64::max);
                let total: f64 = legal.iter().map(|&x| (logit(x) - top).exp()).sum();
                let p = (logit(id) - top).exp() / total;
                assert!(p >= 0.1 || logit(id) >= top, "deal {i}: declared {chosen:?} at probability {p}");
                checked += 1;
                break;
            }
            g.apply(rules.act(&view, &mut rng).unwrap()).unwrap();
        }
    }
    assert!(checked > 100, "{checked}");
    let s = MatchSettings { seed: 4, threads: 2, ..MatchSettings::default() };
    assert_eq!(
        run_match(agent.as_ref(), registry::parse("rules").unwrap().as_ref(), 10, &s, None, &mut quiet)
            .unwrap()
            .pair
            .games,
        60
    );
}

fn pass() -> cfrkit_core::games::skat::Action {
    cfrkit_core::games::skat::Action::Call(cfrkit_core::games::skat::Call::Pass)
}

/// PIMC with inference: a world's weight is the policy's probability of the other seats' moves
/// in it; the true deal (the policy imitates the agent that played it) is likelier than most
/// worlds drawn uniformly; decisions do not depend on the thread count; the agent plays legal
/// matches and its options are checked.
fn inference_checks(policy: &Path) {
    let spec = format!("net:{}", policy.display());
    let policy = PlayModel::from_spec::<SkatPolicies>(&spec).unwrap();
    let shared: Arc<Model> = Arc::new(policy.clone());
    let model = Evidence::new(shared.clone(), &spec, 0.1).unwrap();
    let uniform = Evidence::new(shared, &spec, 1.0).unwrap();
    let random = Evidence::new(move_model("random").unwrap(), "random", 0.1).unwrap();
    // The rules agent played these positions: as the model, it finds the true deal likelier.
    let rules = Evidence::new(move_model("rules").unwrap(), "rules", 0.1).unwrap();
    let (mut above, mut total, mut rules_above) = (0usize, 0u64, 0usize);
    for (g, p) in positions(40) {
        // With a floor of 1 every move the policy covers has probability 1 / legal moves; the
        // random agent gives every move that probability.
        let mut replay = Game::new(&g.deal());
        let (mut expected, mut expected_random) = (0.0, 0.0);
        for (seat, action) in g.history() {
            let view = View::new(&replay, seat);
            let legal = legal_ids(&view).len();
            if seat != p && legal > 1 {
                expected_random -= (legal as f64).ln();
                if policy.covers(KINDS[kind_of(&view)].0) {
                    expected -= (legal as f64).ln();
                }
            }
            replay.apply(action).unwrap();
        }
        let got = log_likelihood(&uniform, &g, p).unwrap();
        assert!((got - expected).abs() < 1e-9 && expected < 0.0, "{got} {expected}");
        let got = log_likelihood(&random, &g, p).unwrap();
        assert!((got - expected_random).abs() < 1e-9 && expected_random <= expected, "{got} {expected_random}");

        let truth = log_likelihood(&model, &g, p).unwrap();
        let worlds = Worlds::new(&View::new(&g, p)).unwrap();
        let mut rng = Pcg64::seed_from_u64(total);
        let sample: Vec<Game> = (0..40).map(|_| worlds.sample(&mut rng).unwrap()).collect();
        let median = |e: &Evidence<Model>| {
            let mut x: Vec<f64> = sample.iter().map(|w| log_likelihood(e, w, p).unwrap()).collect();
            x.sort_by(f64::total_cmp);
            x[20]
        };
        above += usize::from(truth > median(&model));
        rules_above += usize::from(log_likelihood(&rules, &g, p).unwrap() > median(&rules));
        total += 1;
    }
    eprintln!("skat inference: true deal above the median in {above} of {total} ({rules_above} with rules)");
    assert!(rules_above as u64 * 10 >= total * 8, "true deal above the median with rules in {rules_above} of {total}");
    assert!(total >= 30 && above as u64 * 10 >= total * 13 / 2, "true deal above the median in {above} of {total}");

    // A temper of 0.5 weighs each candidate by the square root of its likelihood: the same pool
    // (same draw), each share the normalised square root of the plain share.
    let pool_shares = |temper: &str| {
        let o = AgentOptions::parse(
            "pimc",
            &format!("inference={spec},pool=24,temper={temper}"),
            &["inference", "pool", "temper"],
            "",
        )
        .unwrap();
        let inference = Inference::from_options(&o, 6, move_model).unwrap().unwrap();
        let (g, p) = positions(3).pop().unwrap();
        let worlds = Worlds::new(&View::new(&g, p)).unwrap();
        let sampling = Inference::sampling(
            Some(&inference),
            &Pimc::new(6, 1, 0).unwrap(),
            worlds,
            &mut Pcg64::seed_from_u64(3),
            |m, w: &Game| log_likelihood(m, w, p),
        );
        let Ok(Sampling::Weighted(pool)) = sampling else { panic!("a weighted pool") };
        (pool.probabilities(), pool.effective_size())
    };
    let ((plain, plain_size), (half, half_size)) = (pool_shares("1"), pool_shares("0.5"));
    let roots: f64 = plain.iter().map(|x| x.sqrt()).sum();
    for (x, y) in plain.iter().zip(&half) {
        assert!((x.sqrt() / roots - y).abs() < 1e-12, "{x} {y}");
    }
    assert!(half_size > plain_size && plain_size < 24.0, "{plain_size} {half_size}");

    let agent = |threads: u32| pimc::from_options(&format!("worlds=6,threads={threads},inference={spec}")).unwrap();
    let (one, two) = (agent(1), agent(2));
    for (i, (g, p)) in positions(6).into_iter().enumerate() {
        let view = View::new(&g, p);
        let rng = || Pcg64::seed_from_u64(i as u64);
        assert_eq!(one.card_values(&view, &mut rng()).unwrap(), two.card_values(&view, &mut rng()).unwrap());
    }
    let named = registry::parse(&format!("pimc:worlds=6,inference={spec}")).unwrap();
    assert_eq!(named.name(), format!("pimc:worlds=6,inference={spec}"));
    let custom = registry::parse(&format!("PIMC:Worlds=6,inference={spec},pool=10,floor=0.5,temper=0.5")).unwrap();
    assert_eq!(custom.name(), format!("pimc:worlds=6,inference={spec},pool=10,floor=0.5,temper=0.5"));
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 5, threads: 2, ..MatchSettings::default() };
    let r = run_match(named.as_ref(), rules.as_ref(), 2, &s, None, &mut quiet).unwrap();
    assert_eq!(r.pair.games, 12);
    // Any model that gives probabilities: the random agent's uniform choice.
    let by_random = registry::parse("pimc:worlds=6,inference=random,temper=0.5").unwrap();
    assert_eq!(by_random.name(), "pimc:worlds=6,inference=random,temper=0.5");
    let r = run_match(by_random.as_ref(), rules.as_ref(), 1, &s, None, &mut quiet).unwrap();
    assert_eq!(r.pair.games, 6);
    for (bad, want) in [
        ("pimc:pool=10".to_string(), "only with inference"),
        ("pimc:inference=pimc".to_string(), "net:DIR"),
        ("pimc:inference=random:x".to_string(), "random"),
        (format!("pimc:inference={spec},floor=0"), "floor"),
        (format!("pimc:inference={spec},temper=1.5"), "pimc temper"),
        ("pimc:temper=0.5".to_string(), "only with inference"),
        (format!("pimc:inference={spec},pool=0"), "pool"),
        ("pimc:inference=net:/nonexistent/policy".to_string(), "model.json"),
    ] {
        let e = registry::parse(&bad).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{bad}: {e}");
    }
}

/// The hybrid agent decides as the policy before its trick and as PIMC from it on.
fn hybrid_checks(policy: &Path) {
    let dir = policy.display();
    let hybrid = registry::parse(&format!("hybrid:net={dir},from=3,worlds=6,seed=4")).unwrap();
    assert_eq!(hybrid.name(), format!("hybrid:net={dir},from=3,worlds=6,seed=4"));
    let net = registry::parse(&format!("net:{dir}")).unwrap();
    let pimc = registry::parse("pimc:worlds=6,seed=4").unwrap();
    let mut seen = [0, 0];
    for i in 0..8 {
        let mut g = Game::new(&Deal::for_game(5, i));
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
    assert!(seen[0] > 50 && seen[1] > 20, "{seen:?}");
    // With precardplay=pimc the bidding is PIMC's (its rules agent), not the policy's.
    let by_pimc = registry::parse(&format!("hybrid:net={dir},from=3,precardplay=pimc,worlds=6,seed=4")).unwrap();
    let mut differ = 0;
    for i in 0..200 {
        let mut g = Game::new(&Deal::for_game(6, i));
        let rng = Pcg64::seed_from_u64(i);
        while let Some(p) = g.player().filter(|_| g.phase() != Phase::Tricks) {
            let view = View::new(&g, p);
            let a = by_pimc.act(&view, &mut rng.clone()).unwrap();
            assert_eq!(a, pimc.act(&view, &mut rng.clone()).unwrap());
            differ += usize::from(a != net.act(&view, &mut rng.clone()).unwrap());
            g.apply(a).unwrap();
        }
    }
    assert!(differ > 0, "the policy bids as PIMC's rules agent in every decision: no check");
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 2, threads: 2, ..MatchSettings::default() };
    assert_eq!(run_match(hybrid.as_ref(), rules.as_ref(), 2, &s, None, &mut quiet).unwrap().pair.games, 12);
    assert_eq!(run_match(by_pimc.as_ref(), rules.as_ref(), 1, &s, None, &mut quiet).unwrap().pair.games, 6);
    for (bad, want) in [
        ("hybrid:worlds=6".to_string(), "hybrid net"),
        (format!("hybrid:net={dir},from=11"), "1 to 10"),
        (format!("hybrid:net={dir},worlds=0"), "worlds"),
        ("hybrid:net=/nonexistent/policy".to_string(), "model.json"),
        ("hybrid".to_string(), "hybrid:net=DIR"),
    ] {
        let e = registry::parse(&bad).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{bad}: {e}");
    }
}

/// Training stopped in the middle resumes into the files an uninterrupted run writes (`full`),
/// training only the kinds not done; other settings are refused.
fn resume_checks(log: &Path, full: &Path, settings: &TrainSettings) {
    let scratch = temp("resume");
    let dir = scratch.path();
    let logs = std::slice::from_ref(&log.to_path_buf()).to_vec();
    let stop = "cards-suit-declarer";
    let mut interrupt = |kind: &str, _: usize, _: &_| if kind == stop { Err(Error::Interrupted) } else { Ok(()) };
    assert!(imitate::<SkatPolicies>(&logs, dir, settings, false, &mut interrupt).is_err());
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("model.json")).unwrap()).unwrap();
    let kept: Vec<String> =
        kept["nets"].as_array().unwrap().iter().map(|n| n["kind"].as_str().unwrap().into()).collect();
    assert!(kept.contains(&"bid".to_string()) && !kept.contains(&stop.to_string()), "{kept:?}");
    let mut trained = Vec::new();
    let report = imitate::<SkatPolicies>(&logs, dir, settings, true, &mut |kind, _, _| {
        trained.push(kind.to_string());
        Ok(())
    })
    .unwrap();
    assert!(trained.iter().all(|k| !kept.contains(k)) && trained.contains(&stop.to_string()), "{trained:?}");
    assert!(report.iter().any(|(k, r)| k == "bid" && r.samples_per_second == 0.0 && r.heldout_loss > 0.0));
    let mut files = 0;
    for entry in std::fs::read_dir(full).unwrap() {
        let name = entry.unwrap().file_name();
        let same = std::fs::read(full.join(&name)).unwrap() == std::fs::read(dir.join(&name)).unwrap();
        assert!(same, "{name:?} differs from the uninterrupted run's");
        files += 1;
    }
    assert!(files >= 5, "{files}");
    let other = TrainSettings { seed: settings.seed + 1, ..settings.clone() };
    let e = imitate::<SkatPolicies>(&logs, dir, &other, true, &mut |_, _, _| Ok(())).unwrap_err().to_string();
    assert!(e.contains("resume") && e.contains("same settings"), "{e}");
}

/// Every card-play symmetry is one of the game: a whole game replayed on the relabelled deal
/// with the relabelled moves is legal move for move, and at each card decision its features
/// and legal cards are the symmetry's image of the original's. Games of each type (suit games
/// of every trump, grand, null) at a bid of 18, contracts chosen, everything else random.
#[test]
fn card_play_symmetries_relabel_whole_games() {
    use cfrkit_core::games::skat::agents::RandomAgent;
    use cfrkit_core::games::skat::contract::GameType;
    use cfrkit_core::games::skat::features::{card_play_group, card_play_symmetries, features};
    use cfrkit_core::games::skat::Action;
    use rand::Rng;
    let groups = card_play_symmetries();
    assert_eq!(groups.iter().map(Vec::len).collect::<Vec<_>>(), [6, 6, 6, 6, 24, 24]);
    let mut rng = Pcg64::seed_from_u64(5);
    let mut seen = [0usize; 6];
    for g in 0..36 {
        let want = GameType::ALL[g % 6];
        let deal = Deal::random(&mut rng);
        let mut game = Game::new(&deal);
        while !game.finished() {
            let seat = game.player().unwrap();
            let view = View::new(&game, seat);
            let bid_18 = Action::Call(cfrkit_core::games::skat::Call::Bid(18));
            let action = match view.legal_contracts().iter().find(|c| c.game == want) {
                Some(&c) if view.phase() == Phase::Declare => Action::Declare(c),
                // The first bidder bids 18, everyone else passes: every game type is allowed.
                _ if view.phase() == Phase::Bidding && view.legal_actions().contains(&bid_18) => bid_18,
                _ if view.phase() == Phase::Bidding => Action::Call(cfrkit_core::games::skat::Call::Pass),
                _ => Agent::<Skat>::act(&RandomAgent, &view, &mut rng).unwrap(),
            };
            game.apply(action).unwrap();
        }
        if game.thrown_in() || game.contract().map(|c| c.game) != Some(want) {
            continue;
        }
        let history = game.history();
        let group = card_play_group(&features(&View::new(&game, 0))).unwrap();
        assert_eq!(GameType::ALL[group], want);
        seen[group] += 1;
        let symmetry = &groups[group][rng.gen_range(0..groups[group].len())];
        let card = |c: u8| symmetry.action(c as u16) as u8;
        let set = |s: u64| cfrkit_core::cards::iter(s).fold(0u64, |m, c| m | 1 << card(c));
        let image_deal = Deal::new(deal.hands.map(set), set(deal.skat)).unwrap();
        let (mut a, mut b) = (Game::new(&deal), Game::new(&image_deal));
        for &(seat, action) in &history {
            if a.phase() == Phase::Tricks {
                let (va, vb) = (View::new(&a, seat), View::new(&b, seat));
                assert_eq!(features(&vb), symmetry.apply(&features(&va)), "game {g}, {want:?}");
                assert_eq!(vb.legal_cards(), set(va.legal_cards()));
            }
            let image = match action {
                Action::Card(c) => Action::Card(card(c)),
                Action::Discard(s) => Action::Discard(set(s)),
                other => other,
            };
            a.apply(action).unwrap();
            b.apply(image).unwrap_or_else(|e| panic!("game {g}: {image:?} refused: {e}"));
        }
        assert_eq!(a.result().map(|r| r.tp), b.result().map(|r| r.tp));
    }
    assert_eq!(seen, [6; 6]);
}
