//! Schafkopf determinization (issue 21): sampled worlds never contradict a seat's view, over
//! random games with every game type, contra, retour and running away, under both rule sets;
//! they are uniform over the consistent deals (chi-square against brute-force enumeration); and
//! the hard constraints bite (the caller, a contra-giver, a seat void in a suit).

use cfrkit_core::cards::{bit, iter, lowest, Card, CardSet};
use cfrkit_core::games::schafkopf::cards::{ace, suit_cards, DECK, OBERS, SCHELLEN, UNTERS};
use cfrkit_core::games::schafkopf::pimc::worlds::Worlds;
use cfrkit_core::games::schafkopf::{Action, Deal, Declaration, Game, Phase, Rules, View};
use cfrkit_core::search::HiddenSampler;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// How the players of a test game act.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Style {
    /// Uniformly random legal actions (mostly Solos win the auction).
    Uniform,
    /// Declarations among pass and the allowed Sauspiele (mostly Sauspiele).
    Sauspiel,
    /// A deal made for running away: the first player calls the Schellen Ace, held by a seat
    /// with three more plain Schellen, who leads them when he can.
    RunAway,
    /// Everyone passes.
    AllPass,
}

/// The deal of a game of style `style` from `rng`.
fn deal_for(style: Style, rng: &mut Pcg64) -> Deal {
    let d = Deal::random(rng);
    if style != Style::RunAway {
        return d;
    }
    let first = (d.dealer + 1) % 4;
    let holder = (first + 1 + rng.gen_range(0..3u8)) % 4;
    let plain_s = suit_cards(SCHELLEN) & !OBERS & !UNTERS & !bit(ace(SCHELLEN));
    let low: Vec<Card> = iter(plain_s).collect(); // S7 S8 S9 SK S10
    let mut hands = [0u64; 4];
    hands[holder as usize] = bit(ace(SCHELLEN)) | bit(low[0]) | bit(low[1]) | bit(low[2]);
    hands[first as usize] = bit(low[3]);
    let mut rest: Vec<Card> = iter(DECK & !hands[holder as usize] & !hands[first as usize]).collect();
    rest.shuffle(rng);
    for c in rest {
        let p = (0..4).find(|&p| hands[p].count_ones() < 8).unwrap();
        hands[p] |= bit(c);
    }
    Deal::new(hands, d.dealer).unwrap()
}

/// The action of the seat to act in a game of style `style`.
fn act(g: &Game, style: Style, rng: &mut Pcg64) -> Action {
    let legal = g.legal_actions();
    let pick = |v: &[Action], rng: &mut Pcg64| v[rng.gen_range(0..v.len())];
    match g.phase() {
        Phase::Bidding => {
            let me = g.player().unwrap();
            match style {
                Style::Uniform => pick(&legal, rng),
                Style::AllPass => Action::Declare(Declaration::Pass),
                Style::RunAway if me == g.first_player() => Action::Declare(Declaration::Sauspiel(SCHELLEN)),
                Style::RunAway => Action::Declare(Declaration::Pass),
                Style::Sauspiel => {
                    let v: Vec<Action> = legal
                        .iter()
                        .copied()
                        .filter(|a| matches!(a, Action::Declare(Declaration::Pass | Declaration::Sauspiel(_))))
                        .collect();
                    pick(&v, rng)
                }
            }
        }
        Phase::Contra | Phase::Retour => {
            if legal.len() > 1 && rng.gen_bool(0.4) {
                Action::Double(true)
            } else {
                Action::Double(false)
            }
        }
        _ => {
            let cards = g.legal_cards();
            if style == Style::RunAway && g.current_trick().is_empty() {
                let low = cards & suit_cards(SCHELLEN) & !OBERS & !UNTERS & !bit(ace(SCHELLEN));
                let p = g.player().unwrap();
                if low != 0 && g.hand(p) & bit(ace(SCHELLEN)) != 0 && rng.gen_bool(0.8) {
                    return Action::Card(lowest(low));
                }
            }
            pick(&legal, rng)
        }
    }
}

/// The states of a game of style `style` under `rules`: before every action, then the end.
fn play(style: Style, rules: Rules, rng: &mut Pcg64) -> Vec<Game> {
    let mut g = Game::new(&deal_for(style, rng), rules);
    let mut states = vec![g];
    while !g.finished() {
        let a = act(&g, style, rng);
        g.apply(a).unwrap();
        states.push(g);
    }
    states
}

/// The game dealt `dealt` with `history` replayed through the checked entry point, if legal.
fn replay(dealt: [CardSet; 4], dealer: u8, rules: Rules, history: &[(u8, Action)]) -> Option<Game> {
    let mut g = Game::new(&Deal::new(dealt, dealer).ok()?, rules);
    for &(p, a) in history {
        if g.player() != Some(p) {
            return None;
        }
        g.apply(a).ok()?;
    }
    Some(g)
}

/// Whether `w` shows `seat` exactly what `g` shows it.
fn same_view(w: &Game, g: &Game, seat: u8) -> bool {
    w.hand(seat) == g.hand(seat)
        && w.dealt(seat) == g.dealt(seat)
        && w.history() == g.history()
        && w.phase() == g.phase()
        && w.player() == g.player()
        && w.contract() == g.contract()
        && w.declarer() == g.declarer()
        && w.davongelaufen() == g.davongelaufen()
        && w.scores() == g.scores()
        && (0..4).all(|p| w.played_by(p) == g.played_by(p) && w.hand(p).count_ones() == g.hand(p).count_ones())
        && (g.player() != Some(seat) || w.legal_mask() == g.legal_mask())
}

fn deal_of(g: &Game) -> [CardSet; 4] {
    std::array::from_fn(|p| g.dealt(p as u8))
}

/// Calls `f` with every subset of `set` of `k` cards.
fn subsets(set: CardSet, k: usize, f: &mut impl FnMut(CardSet)) {
    fn go(rest: CardSet, k: usize, chosen: CardSet, f: &mut impl FnMut(CardSet)) {
        if k == 0 {
            return f(chosen);
        }
        if (rest.count_ones() as usize) < k {
            return;
        }
        let c = rest & rest.wrapping_neg();
        go(rest & !c, k - 1, chosen | c, f);
        go(rest & !c, k, chosen, f);
    }
    go(set, k, 0, f)
}

/// The consistent deals of `seat`'s view of `g` by brute force: every split of the unseen cards
/// into hands of the right sizes whose replay reproduces the view.
fn brute_force(g: &Game, seat: u8) -> Vec<[CardSet; 4]> {
    let view = View::new(g, seat);
    let unseen = DECK & !view.hand() & !view.played();
    let o: Vec<u8> = (0..4).filter(|&p| p != seat).collect();
    let history = g.history();
    let mut base: [CardSet; 4] = std::array::from_fn(|p| g.played_by(p as u8));
    base[seat as usize] |= g.hand(seat);
    let size = |p: u8| g.hand(p).count_ones() as usize;
    let mut out = Vec::new();
    subsets(unseen, size(o[0]), &mut |h0| {
        subsets(unseen & !h0, size(o[1]), &mut |h1| {
            let mut dealt = base;
            dealt[o[0] as usize] |= h0;
            dealt[o[1] as usize] |= h1;
            dealt[o[2] as usize] |= unseen & !h0 & !h1;
            if let Some(w) = replay(dealt, g.dealer(), g.rules(), &history) {
                if same_view(&w, g, seat) {
                    out.push(dealt);
                }
            }
        })
    });
    out
}

const STYLES: [Style; 4] = [Style::Uniform, Style::Sauspiel, Style::RunAway, Style::AllPass];

/// Every sampled world reproduces the view (own hand, public history, legal replay, hand
/// sizes), at every decision of random games of every style under both rule sets, for every
/// seat; on small positions the true deal is among the worlds drawn.
#[test]
fn worlds_reproduce_every_view() {
    let mut rng = Pcg64::seed_from_u64(2021);
    let (mut worlds, mut views, mut true_found, mut proposals) = (0u64, 0u64, 0u64, 0u64);
    let mut seen = std::collections::HashSet::new();
    for k in 0..240 {
        let style = STYLES[k % 4];
        let rules = if k % 8 < 4 { Rules::SCHAFKOPFRL } else { Rules::STANDARD };
        let states = play(style, rules, &mut rng);
        let last = *states.last().unwrap();
        seen.insert((format!("{:?}", last.contract().map(|c| c.kind())), last.contra_given(), last.retour_given()));
        if last.davongelaufen().is_some() {
            seen.insert(("davongelaufen".into(), false, false));
        }
        for g in &states {
            for seat in 0..4 {
                let view = View::new(g, seat);
                let w = Worlds::new(&view).unwrap();
                views += 1;
                assert!(w.world(deal_of(g)).is_some(), "the true deal is a world");
                assert!(w.proposal_count() >= 1);
                let mut accepted = 0;
                let mut tried = 0;
                while accepted < 3 {
                    tried += 1;
                    assert!(tried < 10_000, "acceptance too low in {g:?}");
                    let Some(world) = w.propose(&mut rng) else { continue };
                    accepted += 1;
                    assert!(same_view(&world, g, seat), "{world:?}\nis not a world of\n{g:?}");
                    let again = replay(deal_of(&world), g.dealer(), rules, &g.history());
                    assert_eq!(again, Some(world), "the world replays through the checked entry point");
                    worlds += 1;
                }
                proposals += tried;
                if w.proposal_count() <= 12 && !g.finished() {
                    let truth = deal_of(g);
                    let found = (0..400).any(|_| w.sample(&mut rng).ok().map(|x| deal_of(&x)) == Some(truth));
                    assert!(found, "the true deal is drawn among {} proposals' worlds", w.proposal_count());
                    true_found += 1;
                }
            }
        }
    }
    eprintln!(
        "{views} views, {worlds} worlds from {proposals} proposals, true deal drawn on {true_found} small \
         positions; kinds seen {seen:?}"
    );
    assert!(worlds > 100_000 && true_found > 1_000, "{worlds} {true_found}");
    // The proved facts (masks, quotas, the two cases of an open called-suit lead) capture every
    // constraint of these games: the replay check never had to reject a proposal.
    assert_eq!(proposals, worlds, "no proposal rejected");
    // Every game type, contra and retour, running away and the all-pass play-out occurred.
    for kind in ["Some(Some(Sauspiel))", "Some(Some(Solo))", "Some(Some(Wenz))", "Some(None)", "None"] {
        assert!(seen.iter().any(|s| s.0 == kind), "{kind} in {seen:?}");
    }
    assert!(seen.iter().any(|s| s.1) && seen.iter().any(|s| s.2), "contra and retour");
    assert!(seen.iter().any(|s| s.0 == "davongelaufen"), "running away");
}

/// Late in random games (two tricks left, every seat), the consistent deals enumerated by brute
/// force are worlds, and the number of proposals equals their number: the proposal is exact
/// there, nothing is left for the replay check to reject.
#[test]
fn counts_equal_brute_force_late_in_games() {
    let mut rng = Pcg64::seed_from_u64(7);
    let (mut positions, mut constrained) = (0, 0);
    for k in 0..60 {
        let style = STYLES[k % 3];
        let rules = if k % 2 == 0 { Rules::SCHAFKOPFRL } else { Rules::STANDARD };
        for g in play(style, rules, &mut rng).iter().filter(|g| g.tricks_done() >= 6 && !g.finished()) {
            for seat in 0..4 {
                let brute = brute_force(g, seat);
                let w = Worlds::new(&View::new(g, seat)).unwrap();
                assert!(brute.contains(&deal_of(g)));
                for d in &brute {
                    assert_eq!(w.world(*d).map(|x| deal_of(&x)), Some(*d), "a consistent deal is a world");
                }
                assert_eq!(w.proposal_count(), brute.len() as u128, "the count is exact");
                constrained += (unconstrained(g, seat) > brute.len() as u128) as u32;
                positions += 1;
            }
        }
    }
    eprintln!("{positions} positions, {constrained} where the view rules out deals of the right hand sizes");
    assert!(positions > 1000 && constrained > 300, "{positions} {constrained}");
}

/// The number of deals of `seat`'s view of `g` with the right hand sizes, nothing else known.
fn unconstrained(g: &Game, seat: u8) -> u128 {
    let view = View::new(g, seat);
    let need: Vec<usize> = (0..4).filter(|&p| p != seat).map(|p| g.hand(p).count_ones() as usize).collect();
    HiddenSampler::new(DECK & !view.hand() & !view.played(), &need, |_| 0b111).unwrap().count()
}

/// Upper tail of the chi-square distribution by the Wilson–Hilferty normal approximation,
/// as a z score (3.09: p = 0.001).
fn chi_square_z(chi2: f64, df: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    ((chi2 / df).powf(1.0 / 3.0) - (1.0 - a)) / a.sqrt()
}

/// 20,000 worlds of `seat`'s view of `g`, counted per brute-force consistent deal, against
/// uniform (chi-square, p > 0.001, fixed seed).
fn check_uniform(g: &Game, seat: u8, brute: &[[CardSet; 4]], seed: u64) {
    let w = Worlds::new(&View::new(g, seat)).unwrap();
    let mut freq = vec![0u32; brute.len()];
    let draws = 20_000;
    let mut rng = Pcg64::seed_from_u64(seed);
    for _ in 0..draws {
        let d = deal_of(&w.sample(&mut rng).unwrap());
        freq[brute.iter().position(|b| *b == d).expect("a consistent deal")] += 1;
    }
    let expected = draws as f64 / brute.len() as f64;
    let chi2: f64 = freq.iter().map(|&f| (f as f64 - expected).powi(2) / expected).sum();
    let df = (brute.len() - 1) as f64;
    let z = chi_square_z(chi2, df);
    eprintln!(
        "{} consistent deals ({} of the right hand sizes); chi2 {chi2:.1} with {df} df, z {z:.2}",
        brute.len(),
        unconstrained(g, seat)
    );
    assert!(freq.iter().all(|&f| f > 0), "every consistent deal is drawn");
    assert!(z < 3.09, "chi2 {chi2} with {df} degrees of freedom: z {z}");
}

/// The first position of `style`'s games from `seed` that `pick` accepts (after `tricks_done`
/// tricks, the seat to act), with its brute-force consistent deals: between 30 and 300 of them, at most half the
/// deals of the right hand sizes (the constraints bite), and accepted by `deals`.
fn small_position(
    style: Style,
    seed: u64,
    tricks_done: u8,
    pick: impl Fn(&Game, u8) -> bool,
    deals: impl Fn(&Game, &[[CardSet; 4]]) -> bool,
) -> (Game, u8, Vec<[CardSet; 4]>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    for _ in 0..10_000 {
        for g in play(style, Rules::SCHAFKOPFRL, &mut rng).into_iter().filter(|g| g.tricks_done() == tricks_done) {
            let Some(seat) = g.player() else { continue };
            if !pick(&g, seat) {
                continue;
            }
            let brute = brute_force(&g, seat);
            if (30..=300).contains(&brute.len())
                && 2 * brute.len() as u128 <= unconstrained(&g, seat)
                && deals(&g, &brute)
            {
                return (g, seat, brute);
            }
        }
    }
    panic!("no such position");
}

/// Uniformity over the consistent deals, enumerated by brute force, on two small Sauspiel
/// positions: one with the called Ace unseen, one where the called suit is led in the current
/// trick and the Ace has not fallen (the leader may be running away: two cases of proposals).
#[test]
fn sampling_is_uniform_over_consistent_deals() {
    let called_unseen = |g: &Game, seat: u8| {
        g.contract().and_then(|c| c.called_ace()).is_some_and(|a| (g.hand(seat) | g.played()) & bit(a) == 0)
    };
    let (g, seat, brute) = small_position(Style::Sauspiel, 99, 5, called_unseen, |_, _| true);
    check_uniform(&g, seat, &brute, 5);
    let open_lead = |g: &Game, seat: u8| {
        let x = g.contract().and_then(|c| c.called_suit());
        let lead = g.current_trick().first().copied();
        called_unseen(g, seat)
            && matches!((x, lead), (Some(x), Some(l)) if g.contract().unwrap().order().suit(l) == x)
            && g.davongelaufen().is_none()
    };
    // Both cases occur among the consistent deals: the leader holds the Ace in some, not in others
    // (he may be running away: after his lead he holds three cards or more).
    let both_cases = |g: &Game, brute: &[[CardSet; 4]]| {
        let (leader, a) = (g.trick_leader(g.tricks_done() as usize), g.contract().unwrap().called_ace().unwrap());
        let holds = brute.iter().filter(|d| d[leader as usize] & bit(a) != 0).count();
        holds > 0 && holds < brute.len()
    };
    let (g, seat, brute) = small_position(Style::Sauspiel, 11, 4, open_lead, both_cases);
    check_uniform(&g, seat, &brute, 6);
}

/// The constraints bite: in every world the declarer and any contra-giver lack the called
/// Ace, a retour-giver other than the declarer and the seat that ran away hold it, the declarer
/// held a plain card of the called suit, and no seat holds a card of a suit it did not follow.
#[test]
fn constraints_bite() {
    let mut rng = Pcg64::seed_from_u64(31);
    let mut counts = [0u32; 5];
    for k in 0..160 {
        let style = [Style::Sauspiel, Style::RunAway][k % 2];
        for g in play(style, Rules::SCHAFKOPFRL, &mut rng).iter().filter(|g| !g.finished()) {
            let Some(contract) = g.contract() else { continue };
            let order = contract.order();
            // Voids shown: a card of another effective suit than the one led.
            let mut voids = [0u64; 4];
            for t in 0..=g.tricks_done().min(7) as usize {
                let trick = g.trick(t);
                for (i, &c) in trick.iter().enumerate().skip(1) {
                    if order.suit(c) != order.suit(trick[0]) {
                        voids[g.seat_of(t, i) as usize] |= order.suit_cards(order.suit(trick[0]));
                    }
                }
            }
            let called = contract.called_ace().filter(|&a| g.played() & bit(a) == 0);
            for seat in 0..4u8 {
                let w = Worlds::new(&View::new(g, seat)).unwrap();
                for _ in 0..4 {
                    let world = w.sample(&mut rng).unwrap();
                    for p in 0..4u8 {
                        if p != seat && voids[p as usize] != 0 {
                            assert_eq!(world.hand(p) & voids[p as usize], 0, "void seat {p}");
                            counts[0] += 1;
                        }
                    }
                    let Some(a) = called else { continue };
                    let declarer = g.declarer().unwrap();
                    assert_eq!(world.dealt(declarer) & bit(a), 0, "the caller holds no called Ace");
                    let x = cfrkit_core::cards::set::suit(a);
                    let plain = suit_cards(x) & !OBERS & !UNTERS & !bit(a);
                    assert_ne!(world.dealt(declarer) & plain, 0, "the caller held a plain card of the suit");
                    counts[1] += (declarer != seat) as u32;
                    for p in 0..4u8 {
                        if g.contra()[p as usize] == Some(true) {
                            assert_eq!(world.hand(p) & bit(a), 0, "a contra-giver holds no called Ace");
                            counts[2] += (p != seat) as u32;
                        }
                        if g.retour()[p as usize] == Some(true) && p != declarer {
                            assert_ne!(world.hand(p) & bit(a), 0, "the retour-giver holds it");
                            counts[3] += (p != seat) as u32;
                        }
                    }
                    if let Some(r) = g.davongelaufen() {
                        assert_ne!(world.hand(r) & bit(a), 0, "the runner holds it");
                        counts[4] += (r != seat) as u32;
                    }
                }
            }
        }
    }
    eprintln!(
        "checks: voids {}, caller {}, contra {}, retour {}, runner {}",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
    assert!(counts.iter().all(|&n| n > 50), "{counts:?}");
}

/// Views of a finished game and of seats not to act have worlds too; the Determinization
/// trait draws the same worlds as the inherent sampler.
#[test]
fn any_view_and_the_trait() {
    use cfrkit_core::search::Determinization;
    let mut rng = Pcg64::seed_from_u64(3);
    let states = (0..).map(|_| play(Style::Uniform, Rules::STANDARD, &mut rng)).find(|s| s.len() > 40).unwrap();
    let last = *states.last().unwrap();
    let w = Worlds::new(&View::new(&last, 1)).unwrap();
    assert_eq!(w.sample(&mut rng).unwrap(), last, "a finished game with every card played is its own world");
    let g = states[20];
    let w = Worlds::new(&View::new(&g, (g.player().unwrap() + 1) % 4)).unwrap();
    let a = Determinization::sample(&w, &mut Pcg64::seed_from_u64(8)).unwrap();
    let b = w.sample(&mut Pcg64::seed_from_u64(8)).unwrap();
    assert_eq!(a, b);
}
