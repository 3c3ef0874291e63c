//! Skat PIMC: worlds never contradict the view and are drawn uniformly; the perfect-information
//! solver equals exhaustive minimax on endgames; the PIMC agent's decisions do not depend on the
//! thread count and follow the exact means.

use cfrkit_core::cards::{bit, iter, CardSet};
use cfrkit_core::games::skat::agents::{Agent, Skat};
use cfrkit_core::games::skat::pimc::agent::{from_options, PimcAgent};
use cfrkit_core::games::skat::pimc::solver::Solver;
use cfrkit_core::games::skat::pimc::worlds::Worlds;
use cfrkit_core::games::skat::{Action, Contract, Deal, Game, GameType, Phase, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::HashMap;
use std::sync::Arc;

/// A game of a random deal in which seat `declarer` wins the auction at 18 and announces
/// `contract` (Hand or after a pickup as the contract says, a random discard), then `cards`
/// random legal cards are played.
fn game_with(seed: u64, declarer: u8, contract: Contract, cards: usize) -> Game {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut g = Game::new(&Deal::random(&mut rng));
    let calls: &[&str] = match declarer {
        0 => &["pass", "pass", "18"],
        1 => &["18", "pass", "pass"],
        _ => &["pass", "18", "pass"],
    };
    for c in calls {
        g.apply_name(c).unwrap();
    }
    assert_eq!(g.declarer(), Some(declarer));
    g.apply(Action::Hand(contract.hand)).unwrap();
    if !contract.hand {
        let legal = g.legal_actions();
        g.apply(legal[rng.gen_range(0..legal.len())]).unwrap();
    }
    g.apply(Action::Declare(contract)).unwrap();
    for _ in 0..cards {
        let legal = g.legal_actions();
        g.apply(legal[rng.gen_range(0..legal.len())]).unwrap();
    }
    g
}

/// A random game of a random contract and declarer, `cards` cards into the play.
fn random_game(seed: u64, cards: usize) -> Game {
    let mut rng = Pcg64::seed_from_u64(seed ^ 0x5eed);
    let contract = Contract::ALL[rng.gen_range(0..Contract::ALL.len())];
    game_with(seed, rng.gen_range(0..3), contract, cards)
}

/// Everything `seat` sees of `g`, compared field by field.
fn assert_same_view(world: &Game, g: &Game, seat: u8) {
    let (a, b) = (View::new(world, seat), View::new(g, seat));
    assert_eq!(a.hand(), b.hand());
    assert_eq!(a.dealt_hand(), b.dealt_hand());
    assert_eq!(a.history(), b.history());
    assert_eq!(a.phase(), b.phase());
    assert_eq!(a.player(), b.player());
    assert_eq!(a.open_hand(), b.open_hand());
    assert_eq!(a.skat(), b.skat());
    assert_eq!(a.put_away(), b.put_away());
    assert_eq!(a.legal_actions(), b.legal_actions());
    assert_eq!(a.legal_cards(), b.legal_cards());
    assert_eq!(a.trick_points(), b.trick_points());
    for p in 0..3 {
        assert_eq!(a.played_by(p), b.played_by(p));
        assert_eq!(world.hand(p).count_ones(), g.hand(p).count_ones());
    }
}

/// Over random games of every contract (suit, grand, null, null ouvert, ouvert Hand; Hand and
/// pickup), every declarer, every seat and every stage of the play, and the phases before it,
/// sampled worlds reproduce the seat's view exactly; the true deal's world is a world.
#[test]
fn worlds_never_contradict_the_view() {
    let mut checked = 0;
    let mut kinds = HashMap::new();
    for seed in 0..240u64 {
        let cards = (seed as usize * 7) % 30;
        let g = random_game(seed, cards);
        let c = g.contract().unwrap();
        *kinds.entry((c.game == GameType::Null, c.hand, c.ouvert)).or_insert(0) += 1;
        for seat in 0..3u8 {
            let w = Worlds::new(&View::new(&g, seat)).unwrap();
            let mut rng = Pcg64::seed_from_u64(seed * 3 + seat as u64);
            for _ in 0..8 {
                let world = w.sample(&mut rng).unwrap();
                assert_same_view(&world, &g, seat);
                // Matadors and the put-away points come from a consistent deal: the declarer's
                // twelve cards hold his cards in hand and those he played.
                let d = g.declarer().unwrap();
                let twelve = world.dealt(d) | world.skat();
                assert_eq!(twelve & world.hand(d), world.hand(d));
                assert_eq!(world.put_away().count_ones(), 2);
                checked += 1;
            }
        }
    }
    // Before the tricks: the auction, the skat phase, the discard and the declaration.
    for seed in 0..40u64 {
        let mut g = Game::new(&Deal::for_game(9, seed));
        let mut rng = Pcg64::seed_from_u64(seed);
        for step in 0..(seed as usize % 8) {
            if g.finished() {
                break;
            }
            let legal = g.legal_actions();
            let a = if step < 2 { legal[legal.len() - 1] } else { legal[rng.gen_range(0..legal.len())] };
            g.apply(a).unwrap();
        }
        if g.finished() {
            continue;
        }
        for seat in 0..3u8 {
            let w = Worlds::new(&View::new(&g, seat)).unwrap();
            for _ in 0..4 {
                assert_same_view(&w.sample(&mut rng).unwrap(), &g, seat);
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "{checked}");
    // Null, null ouvert, Hand, pickup, ouvert Hand suit or grand all played.
    for k in
        [(true, false, false), (true, false, true), (true, true, true), (false, true, false), (false, false, false)]
    {
        assert!(kinds.get(&k).copied().unwrap_or(0) >= 3, "{k:?}: {kinds:?}");
    }
    assert!(kinds.get(&(false, true, true)).copied().unwrap_or(0) >= 1, "{kinds:?}");
}

/// Voids shown in the play hold in every world: a seat that did not follow the suit led (the
/// contract's effective suit: Jacks are trumps in suit and grand, cards of their suit in null)
/// holds none of it.
#[test]
fn worlds_keep_the_voids_of_every_trick() {
    let mut voids = 0;
    for seed in 0..200u64 {
        let g = random_game(seed, 12 + (seed as usize % 16));
        let order = g.contract().unwrap().order();
        for seat in 0..3u8 {
            let w = Worlds::new(&View::new(&g, seat)).unwrap();
            let world = w.sample(&mut Pcg64::seed_from_u64(seed)).unwrap();
            for t in 0..=g.tricks_done().min(9) as usize {
                let trick = g.trick(t);
                let Some(&lead) = trick.first() else { continue };
                let led = order.suit(lead);
                for (i, &c) in trick.iter().enumerate().skip(1) {
                    let p = g.seat_of(t, i);
                    if order.suit(c) != led {
                        voids += 1;
                        assert_eq!(world.hand(p) & order.suit_cards(led), 0, "seed {seed} seat {p}");
                    }
                }
            }
        }
    }
    assert!(voids > 300, "{voids}");
}

/// The placement of a world for `seat`: the other seats' hands and the two cards the seat does
/// not know in the skat slot (the skat, or the cards put away after a pickup).
fn placement(world: &Game, seat: u8) -> [CardSet; 3] {
    let others: Vec<u8> = (0..3).filter(|&p| p != seat).collect();
    [world.hand(others[0]), world.hand(others[1]), world.put_away()]
}

/// A defender's worlds late in a pickup game, enumerated: every split of the unseen cards among
/// the declarer's hand, the partner's hand and the put-away pair that replays the public play
/// (voids respected); sampled worlds hit each about equally often (chi-square).
#[test]
fn worlds_are_uniform_on_a_countable_position() {
    let mut tested = 0;
    for seed in 0..400u64 {
        let g = game_with(seed, 1, Contract::plain(GameType::Suit(3)), 25);
        let seat = 0u8;
        let view = View::new(&g, seat);
        let w = Worlds::new(&view).unwrap();
        let unseen: Vec<u8> = iter(!view.played() & !view.hand() & 0xFFFF_FFFF).collect();
        assert_eq!(unseen.len(), 2 + g.hand(1).count_ones() as usize + g.hand(2).count_ones() as usize);
        // Enumerate every assignment of the unseen cards to (declarer, partner, put away).
        let needs = [g.hand(1).count_ones(), g.hand(2).count_ones(), 2];
        let mut consistent = Vec::new();
        let n = unseen.len() as u32;
        for code in 0..3u32.pow(n) {
            let mut parts = [0u64; 3];
            let mut x = code;
            for &c in &unseen {
                parts[(x % 3) as usize] |= bit(c);
                x /= 3;
            }
            if (0..3).any(|i| parts[i].count_ones() != needs[i]) {
                continue;
            }
            // A deal in which the declarer picked up the put-away pair and put it back.
            let dealt = [view.dealt_hand(), parts[0] | view.played_by(1), parts[1] | view.played_by(2)];
            let Ok(deal) = Deal::new(dealt, parts[2]) else { continue };
            let mut replay = Game::new(&deal);
            let mut ok = true;
            for (_, a) in g.history() {
                let a = if matches!(a, Action::Discard(_)) { Action::Discard(parts[2]) } else { a };
                if replay.apply(a).is_err() {
                    ok = false;
                    break;
                }
            }
            if ok {
                consistent.push(parts);
            }
        }
        if consistent.len() < 8 || consistent.len() > 60 {
            continue;
        }
        assert_eq!(w.proposal_count(), consistent.len() as u128, "seed {seed}");
        let draws = 150 * consistent.len();
        let mut freq = vec![0u32; consistent.len()];
        let mut rng = Pcg64::seed_from_u64(seed);
        for _ in 0..draws {
            let p = placement(&w.sample(&mut rng).unwrap(), seat);
            let i = consistent.iter().position(|x| *x == p).expect("a sampled world is consistent");
            freq[i] += 1;
        }
        let expected = draws as f64 / consistent.len() as f64;
        let chi2: f64 = freq.iter().map(|&f| (f as f64 - expected).powi(2) / expected).sum();
        let df = (consistent.len() - 1) as f64;
        assert!(chi2 < df + 6.0 * (2.0 * df).sqrt(), "seed {seed}: chi2 {chi2} with {df} degrees of freedom");
        tested += 1;
        if tested == 6 {
            break;
        }
    }
    assert!(tested >= 3, "{tested}");
}

/// The declarer's Seeger-Fabian points under exhaustive minimax (the declarer maximizing them,
/// the defenders minimizing them), and the mover's points after each legal card.
fn minimax(g: &Game) -> i32 {
    let Some(p) = g.player() else { return g.returns()[g.declarer().unwrap() as usize] };
    let maximize = Some(p) == g.declarer();
    let values = iter(g.legal_cards()).map(|c| {
        let mut h = *g;
        h.apply_legal(Action::Card(c));
        minimax(&h)
    });
    if maximize {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// A seat's points from the declarer's (a defender gets 40 exactly when the declarer loses).
fn to_seat(g: &Game, seat: u8, declarer_tp: i32) -> i64 {
    if Some(seat) == g.declarer() {
        declarer_tp as i64
    } else if declarer_tp < 0 {
        40
    } else {
        0
    }
}

/// The solver equals exhaustive minimax on endgames of the last three and four tricks of suit,
/// grand and null games (Hand and pickup, announced or not): the value of the position to
/// every seat, every legal card's value to the mover, and the bounds and tightening PIMC uses.
#[test]
fn solver_equals_exhaustive_minimax_on_endgames() {
    let mut solver = Solver::new();
    let mut by_game = HashMap::new();
    for seed in 0..300u64 {
        let cards = if seed % 2 == 0 { 18 } else { 19 + (seed as usize / 2) % 3 };
        let g = random_game(seed, cards);
        let game = g.contract().unwrap().game;
        *by_game.entry(format!("{:?}", std::mem::discriminant(&game))).or_insert(0) += 1;
        let exact = minimax(&g);
        for seat in 0..3 {
            assert_eq!(solver.value(&g, seat).unwrap(), to_seat(&g, seat, exact), "seed {seed} seat {seat}");
        }
        assert_eq!(solver.declarer_wins(&g).unwrap(), exact >= 0, "seed {seed}");
        let me = g.player().unwrap();
        let values = solver.card_values(&g).unwrap();
        let bounds = solver.card_bounds(&g).unwrap();
        assert_eq!(values.len(), g.legal_cards().count_ones() as usize);
        for (&(c, v), &(c2, lo, hi)) in values.iter().zip(&bounds) {
            let mut h = g;
            h.apply_legal(Action::Card(c));
            assert_eq!(v, to_seat(&g, me, minimax(&h)), "seed {seed} card {c}");
            assert!(c == c2 && lo <= v && v <= hi, "seed {seed}: {v} not in {lo}..{hi}");
            assert_eq!(solver.card_below(&g, c, hi).unwrap(), v.min(hi));
            if lo < hi {
                assert_eq!(solver.card_below(&g, c, v).unwrap(), v);
            }
        }
        // The best upper bound is the best exact value.
        let best = values.iter().map(|x| x.1).max().unwrap();
        assert_eq!(bounds.iter().map(|x| x.2).max().unwrap(), best, "seed {seed}");
    }
    assert!(by_game.len() == 3 && by_game.values().all(|&n| n >= 20), "{by_game:?}");
}

/// Beyond exhaustive search: from the second or third trick on, the solver's value of a position equals
/// the result of playing it out with the declarer always playing a card of the best value for
/// him and the defenders one of the least value for him, at every step.
#[test]
fn solver_values_are_consistent_along_optimal_play() {
    let mut solver = Solver::new();
    for seed in 0..60u64 {
        let mut g = random_game(1000 + seed, 3 + (seed as usize % 7));
        let d = g.declarer().unwrap();
        let root: Vec<i64> = (0..3).map(|s| solver.value(&g, s).unwrap()).collect();
        while let Some(p) = g.player() {
            let after: Vec<(u8, i64)> = iter(g.legal_cards())
                .map(|c| {
                    let mut h = g;
                    h.apply_legal(Action::Card(c));
                    (c, solver.value(&h, d).unwrap())
                })
                .collect();
            let pick = if p == d { after.iter().max_by_key(|x| x.1) } else { after.iter().min_by_key(|x| x.1) };
            let &(c, v) = pick.unwrap();
            assert_eq!(v, solver.value(&g, d).unwrap(), "seed {seed}");
            if p == d {
                assert_eq!(solver.card_values(&g).unwrap().iter().map(|x| x.1).max(), Some(v), "seed {seed}");
            }
            g.apply_legal(Action::Card(c));
        }
        let end: Vec<i64> = g.returns().iter().map(|&x| x as i64).collect();
        assert_eq!(root, end, "seed {seed}");
    }
}

/// An agent that takes the last legal action.
struct LastAction;
impl Agent<Skat> for LastAction {
    fn name(&self) -> String {
        "last".into()
    }
    fn act(&self, view: &View, _rng: &mut Pcg64) -> cfrkit_core::error::Result<Action> {
        Ok(*view.legal_actions().last().unwrap())
    }
}

/// The PIMC agent: the same card on one and two threads, the first card of the best exact mean
/// though found with bounds; whole games played legally; options parsed.
#[test]
fn pimc_agent_decisions() {
    let (one, two) = (PimcAgent::new(12, 1, 5).unwrap(), PimcAgent::new(12, 2, 5).unwrap());
    let mut decisions = 0;
    for seed in 0..40u64 {
        let g = random_game(seed, 3 + (seed as usize * 5) % 24);
        let view = View::new(&g, g.player().unwrap());
        if view.legal_cards().count_ones() < 2 {
            continue;
        }
        let rng = || Pcg64::seed_from_u64(seed);
        let values = one.card_values(&view, &mut rng()).unwrap();
        assert_eq!(values, two.card_values(&view, &mut rng()).unwrap());
        let chosen = one.act(&view, &mut rng()).unwrap();
        assert_eq!(chosen, two.act(&view, &mut rng()).unwrap());
        let means: Vec<f64> = values.iter().map(|v| v.1).collect();
        let best = cfrkit_core::search::best_option(&means).unwrap();
        assert_eq!(chosen, Action::Card(values[best].0), "seed {seed}: {values:?}");
        decisions += 1;
    }
    assert!(decisions >= 25, "{decisions}");
    // Whole games, every decision by the agent (the heuristic bidder before the cards).
    let agent = from_options("worlds=4,seed=1").unwrap();
    assert_eq!(agent.name(), "pimc:worlds=4,seed=1");
    let mut played = 0;
    for i in 0..6 {
        let mut g = Game::new(&Deal::for_game(11, i));
        let mut rng = Pcg64::seed_from_u64(i);
        while let Some(p) = g.player() {
            let a = agent.act(&View::new(&g, p), &mut rng).unwrap();
            g.apply(a).unwrap();
        }
        played += usize::from(g.contract().is_some());
        let idle = Game::new(&Deal::for_game(11, i));
        assert!(agent.act(&View::new(&idle, 0), &mut rng).is_err(), "Vorhand is not to act first");
    }
    assert!(played >= 1, "{played}");
    assert_eq!(from_options("").unwrap().pimc().worlds(), 160);
    // A pre-cardplay agent plugged in takes every decision before the cards.
    let plugged = from_options("worlds=2").unwrap().with_precardplay(Arc::new(LastAction));
    assert_eq!(plugged.precardplay().name(), "last");
    let mut g = Game::new(&Deal::for_game(12, 0));
    let mut rng = Pcg64::seed_from_u64(0);
    while g.phase() != Phase::Tricks && !g.finished() {
        let view = View::new(&g, g.player().unwrap());
        let a = plugged.act(&view, &mut rng).unwrap();
        assert_eq!(a, *view.legal_actions().last().unwrap());
        g.apply(a).unwrap();
    }
    for bad in ["worlds=0", "depth=3", "worlds=x", "threads=99999"] {
        assert!(from_options(bad).is_err(), "{bad}");
    }
}
