//! The search-based pre-cardplay agent (`pimc:…,bidding=search`): legal in every phase before
//! the cards, independent of the thread count, strong hands bid and win, hopeless bids pass.

use cfrkit_core::cards::{iter, Card};
use cfrkit_core::games::skat::agents::{random_action, Agent};
use cfrkit_core::games::skat::cards::{bit, DECK, NOTATION};
use cfrkit_core::games::skat::pimc::agent::{from_options, PimcAgent};
use cfrkit_core::games::skat::pimc::precardplay::PrecardplaySearch;
use cfrkit_core::games::skat::{Action, Call, Deal, Game, Phase, View};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Plays deal `i` of `seed` to the cards with `agent` in every seat, the cards at random;
/// returns every (phase, action) taken before the cards.
fn play(agent: &PrecardplaySearch, seed: u64, i: u64) -> Vec<(Phase, Action)> {
    let mut g = Game::new(&Deal::for_game(seed, i));
    let mut rng = Pcg64::seed_from_u64(i);
    let mut taken = Vec::new();
    while let Some(p) = g.player() {
        let view = View::new(&g, p);
        let a = if g.phase() == Phase::Tricks {
            random_action(&view, &mut rng).unwrap()
        } else {
            let a = agent.act(&view, &mut rng).unwrap();
            assert!(g.is_legal(a), "{a:?} in {:?}", g.phase());
            taken.push((g.phase(), a));
            a
        };
        g.apply(a).unwrap();
    }
    taken
}

/// Legal actions in every phase before the cards; the same on one thread and on two.
#[test]
fn legal_in_every_phase_and_thread_independent() {
    let one = PrecardplaySearch::new(4, 1, 3).unwrap();
    let two = PrecardplaySearch::new(4, 2, 3).unwrap();
    let mut phases = BTreeSet::new();
    for i in 0..16 {
        let a = play(&one, 11, i);
        phases.extend(a.iter().map(|x| x.0.name()));
        if i < 5 {
            assert_eq!(a, play(&two, 11, i), "deal {i}");
        }
    }
    assert_eq!(phases.len(), 4, "{phases:?}");
}

/// Four Jacks and six clubs: holds 48, declares and wins the game; a weak hand passes at
/// 120, which every contract would overbid.
#[test]
fn dominant_hands_bid_and_win_hopeless_bids_pass() {
    let agent = PrecardplaySearch::new(8, 1, 0).unwrap();
    let strong = NOTATION.parse_set("CJ SJ HJ DJ CA CT CK CQ C9 C8").unwrap();
    let others: Vec<Card> = iter(DECK & !strong).collect();
    let set = |cs: &[Card]| cs.iter().fold(0, |m, &c| m | bit(c));
    let deal = Deal::new([strong, set(&others[..10]), set(&others[10..20])], set(&others[20..])).unwrap();
    let mut g = Game::new(&deal);
    g.apply_name("48").unwrap();
    let mut rng = Pcg64::seed_from_u64(1);
    let (_, means) = agent.declaring_values(&View::new(&g, 0), 48, &mut rng).unwrap();
    assert!(means.iter().any(|&m| m > 100.0), "{means:?}");
    let play = PimcAgent::new(8, 1, 0).unwrap().with_precardplay(Arc::new(agent.clone()));
    while let Some(p) = g.player() {
        let a = if p == 0 || g.phase() == Phase::Tricks {
            play.act(&View::new(&g, p), &mut rng).unwrap()
        } else {
            Action::Call(Call::Pass)
        };
        if g.phase() == Phase::Bidding && p == 0 {
            assert_eq!(a, Action::Call(Call::Hold));
        }
        g.apply(a).unwrap();
    }
    let r = g.result().unwrap();
    assert!(r.won() && r.declarer == Some(0), "{r:?}");

    let weak = NOTATION.parse_set("CJ SJ HA HT HK H9 H8 CA D7 D8").unwrap();
    let others: Vec<Card> = iter(DECK & !weak).collect();
    let deal = Deal::new([weak, set(&others[..10]), set(&others[10..20])], set(&others[20..])).unwrap();
    let mut g = Game::new(&deal);
    g.apply_name("120").unwrap();
    let view = View::new(&g, 0);
    let (_, means) = agent.declaring_values(&view, 120, &mut rng).unwrap();
    assert!(means.iter().all(|&m| m < 0.0), "{means:?}");
    assert_eq!(agent.act(&view, &mut rng).unwrap(), Action::Call(Call::Pass));
}

#[test]
fn spec_names() {
    assert_eq!(from_options("worlds=16").unwrap().name(), "pimc:worlds=16");
    assert_eq!(from_options("worlds=16,bidding=rules").unwrap().name(), "pimc:worlds=16");
    let a = from_options("worlds=16,bidding=search").unwrap();
    assert_eq!(a.name(), "pimc:worlds=16,bidding=search");
    assert_eq!(a.precardplay().name(), "precardplay-search:worlds=16");
    assert_eq!(
        from_options("bidding=search,bidding_worlds=4").unwrap().name(),
        "pimc:worlds=160,bidding=search,bidding_worlds=4"
    );
    for bad in ["bidding=x", "bidding_worlds=4", "bidding=search,bidding_worlds=0"] {
        assert!(from_options(bad).is_err(), "{bad}");
    }
}
