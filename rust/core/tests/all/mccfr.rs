//! MCCFR over compiled games: reproducibility per seed and thread count, split and resumed
//! runs, convergence, coarse keys, parameters.

use cfrkit_core::eval::best_response::{exploitability, nash_conv};
use cfrkit_core::game::{Action, Game, Turn};
use cfrkit_core::games::load_game;
use cfrkit_core::key_list::KeyList;
use cfrkit_core::keying::Keying;
use cfrkit_core::sampled::mccfr::{Mccfr, Method, DEFAULT_EPSILON, INITIAL_VALUE};
use cfrkit_core::tree::{compile, PublicTree};
use std::sync::Arc;

const METHODS: [Method; 2] = [Method::External, Method::Outcome { epsilon: DEFAULT_EPSILON }];

fn tree(spec: &str) -> Arc<PublicTree> {
    Arc::new(load_game(spec).unwrap())
}

fn solver(tree: &Arc<PublicTree>, method: Method, seed: u64, threads: usize) -> Mccfr {
    Mccfr::new(tree.clone(), None, method, seed, threads).unwrap()
}

/// The solver's tables as bits, for exact comparisons.
fn bits(s: &Mccfr) -> Vec<u64> {
    s.regrets().iter().chain(s.cumulative_policy()).map(|x| x.to_bits()).collect()
}

#[test]
fn same_seed_and_threads_give_identical_tables_and_other_seeds_differ() {
    let leduc = tree("leduc");
    for method in METHODS {
        for threads in [1, 2, 3] {
            let mut a = solver(&leduc, method, 7, threads);
            let mut b = solver(&leduc, method, 7, threads);
            assert_eq!(a.run(500, None), 500);
            assert_eq!(b.run(500, None), 500);
            assert_eq!(bits(&a), bits(&b), "{method:?}, {threads} threads");
            let mut c = solver(&leduc, method, 8, threads);
            c.run(500, None);
            assert_ne!(bits(&a), bits(&c), "{method:?}: seeds 7 and 8");
        }
    }
}

#[test]
fn runs_split_on_round_boundaries_equal_one_run() {
    let kuhn = tree("kuhn");
    for method in METHODS {
        // One thread: any split.
        let mut whole = solver(&kuhn, method, 3, 1);
        whole.run(1000, None);
        let mut parts = solver(&kuhn, method, 3, 1);
        for n in [1, 6, 250, 743] {
            parts.run(n, None);
        }
        assert_eq!(bits(&parts), bits(&whole), "{method:?}");
        // Two threads: splits at multiples of the round size, and the last round partial.
        let mut whole = solver(&kuhn, method, 3, 2);
        let round = whole.round_size();
        assert_eq!(round, 128);
        whole.run(5 * round + 17, None);
        let mut parts = solver(&kuhn, method, 3, 2);
        parts.run(round, None);
        parts.run(3 * round, None);
        parts.run(round + 17, None);
        assert_eq!(bits(&parts), bits(&whole), "{method:?}");
        assert_eq!(parts.iteration(), 5 * round + 17);
    }
}

#[test]
fn one_thread_is_the_sequential_algorithm_and_threads_change_only_the_schedule() {
    // Several threads defer updates to the end of a round, so their iterates differ from the
    // sequential ones; both converge.
    let kuhn = tree("kuhn");
    for method in METHODS {
        let mut one = solver(&kuhn, method, 11, 1);
        let mut two = solver(&kuhn, method, 11, 2);
        one.run(1, None);
        two.run(1, None);
        // The first iteration reads the initial tables either way.
        assert_eq!(bits(&one), bits(&two), "{method:?}: iteration 1");
        one.run(30_000, None);
        two.run(30_000, None);
        for s in [&one, &two] {
            let x = exploitability(&kuhn, &s.average_policy()).unwrap();
            assert!(x < 0.03, "{method:?} with {} threads: exploitability {x} after 30k", s.threads());
        }
    }
}

#[test]
fn es_and_os_converge_on_leduc() {
    let leduc = tree("leduc");
    let start = exploitability(&leduc, &solver(&leduc, Method::External, 0, 1).average_policy()).unwrap();
    for (method, iterations, bound) in [(METHODS[0], 20_000, 0.25), (METHODS[1], 100_000, 0.5)] {
        let mut s = solver(&leduc, method, 5, 1);
        s.run(iterations, None);
        let x = exploitability(&leduc, &s.average_policy()).unwrap();
        assert!(x < bound && x < start / 4.0, "{method:?}: {x} after {iterations} (uniform {start})");
        // Policies are distributions.
        for p in [s.average_policy(), s.current_policy()] {
            for i in 0..leduc.infosets.len() {
                let o = leduc.infosets.offset[i] as usize;
                let sum: f64 = p[o..o + leduc.infosets.num_actions(i)].iter().sum();
                assert!((sum - 1.0).abs() < 1e-12, "{sum}");
            }
        }
    }
}

#[test]
fn unvisited_information_sets_average_to_uniform() {
    let kuhn = tree("kuhn");
    let s = solver(&kuhn, Method::External, 0, 1);
    assert!(s.regrets().iter().all(|&x| x == INITIAL_VALUE));
    for (i, p) in s.average_policy().chunks(2).enumerate() {
        assert_eq!(p, [0.5, 0.5], "information set {i}");
    }
}

#[test]
fn checkpoints_resume_exactly_and_refuse_other_runs() {
    let leduc = tree("leduc");
    let dir = std::env::temp_dir().join(format!("cfrkit-mccfr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ck.cfrkit");
    for (method, threads) in [(METHODS[0], 1), (METHODS[1], 2)] {
        let mut whole = solver(&leduc, method, 9, threads);
        whole.run(3 * whole.round_size() * 4, None);
        let mut first = solver(&leduc, method, 9, threads);
        first.run(3 * first.round_size() * 2, None);
        first.save_checkpoint(&path).unwrap();
        let mut resumed = solver(&leduc, method, 9, threads);
        resumed.load_checkpoint(&path).unwrap();
        assert_eq!(resumed.iteration(), first.iteration());
        resumed.run(3 * resumed.round_size() * 2, None);
        assert_eq!(bits(&resumed), bits(&whole), "{method:?}");
    }
    let e = solver(&leduc, METHODS[0], 9, 1).load_checkpoint(&path).unwrap_err().to_string();
    assert!(e.contains("algorithm \"os-mccfr\"") && e.contains("\"es-mccfr\""), "{e}");
    let e = solver(&leduc, METHODS[1], 10, 1).load_checkpoint(&path).unwrap_err().to_string();
    assert!(e.contains("seed 9") && e.contains("seed 10"), "{e}");
    let eps = Method::Outcome { epsilon: 0.5 };
    let e = solver(&leduc, eps, 9, 1).load_checkpoint(&path).unwrap_err().to_string();
    assert!(e.contains("epsilon 0.6"), "{e}");
    let e = solver(&tree("kuhn"), METHODS[1], 9, 1).load_checkpoint(&path).unwrap_err().to_string();
    assert!(e.contains("game \"leduc\""), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn coarse_keys_share_one_row() {
    // Kuhn with the card forgotten: each betting history is one key (imperfect recall).
    let kuhn = tree("kuhn");
    let keys: KeyList = kuhn.infosets.keys.iter().map(|k| k[1..].to_string()).collect();
    let keying = Arc::new(Keying::new(&kuhn, &keys).unwrap());
    for method in METHODS {
        for threads in [1, 2] {
            let mut s = Mccfr::new(kuhn.clone(), Some(keying.clone()), method, 1, threads).unwrap();
            s.run(2000, None);
            assert_eq!(s.regrets().len(), 2 * keying.len());
            let p = s.average_policy();
            for g in 0..keying.len() {
                let members = keying.members_of(g);
                let o = |i: u32| kuhn.infosets.offset[i as usize] as usize;
                for &m in members {
                    assert_eq!(p[o(m)..o(m) + 2], p[o(members[0])..o(members[0]) + 2]);
                }
            }
            assert!(exploitability(&kuhn, &p).unwrap().is_finite());
        }
    }
}

#[test]
fn parameters_are_checked_with_what_is_allowed() {
    assert_eq!(Method::parse("ES-MCCFR", None).unwrap(), Method::External);
    assert_eq!(Method::parse("os-mccfr", None).unwrap(), Method::Outcome { epsilon: 0.6 });
    assert_eq!(Method::parse("os-mccfr", Some(1.0)).unwrap(), Method::Outcome { epsilon: 1.0 });
    for bad in [0.0, -0.1, 1.5, f64::NAN] {
        let e = Method::parse("os-mccfr", Some(bad)).unwrap_err().to_string();
        assert!(e.contains("epsilon") && e.contains("(0, 1]"), "{e}");
    }
    let e = Method::parse("es-mccfr", Some(0.5)).unwrap_err().to_string();
    assert!(e.contains("epsilon") && e.contains("none for es-mccfr"), "{e}");
    let e = Method::parse("cs-mccfr", None).unwrap_err().to_string();
    assert!(e.contains("cs-mccfr") && e.contains("es-mccfr, os-mccfr"), "{e}");
    assert!(Mccfr::new(tree("kuhn"), None, Method::Outcome { epsilon: 2.0 }, 0, 1).is_err());
}

/// A one-player game: chance shows the player a card, 0 or 1, and the player is paid 1 for
/// naming it (perhaps after a pass that changes nothing).
struct NameTheCard;

impl Game for NameTheCard {
    /// The card (None before the deal), then the actions taken.
    type State = (Option<u32>, Vec<u32>);
    fn spec(&self) -> String {
        "name_the_card".into()
    }
    fn num_players(&self) -> usize {
        1
    }
    fn constant_sum(&self) -> bool {
        false
    }
    fn initial_state(&self) -> Self::State {
        (None, vec![])
    }
    fn turn(&self, s: &Self::State) -> Turn {
        match s {
            (None, _) => Turn::Chance,
            (Some(_), h) if h.last().is_some_and(|&a| a < 2) => Turn::Terminal,
            _ => Turn::Player(0),
        }
    }
    fn chance_outcomes(&self, _: &Self::State) -> Vec<(Action, f64)> {
        vec![(0, 0.5), (1, 0.5)]
    }
    fn legal_actions(&self, s: &Self::State) -> Vec<Action> {
        if s.1.is_empty() {
            vec![0, 1, 2]
        } else {
            vec![0, 1]
        }
    }
    fn child(&self, s: &Self::State, a: Action) -> Self::State {
        match s.0 {
            None => (Some(a), vec![]),
            Some(c) => (Some(c), [s.1.clone(), vec![a]].concat()),
        }
    }
    fn returns(&self, s: &Self::State) -> Vec<f64> {
        vec![f64::from(s.1.last() == s.0.as_ref())]
    }
    fn info_key(&self, s: &Self::State, _: usize) -> String {
        format!("{:?} {:?}", s.0, s.1)
    }
    fn action_name(&self, _: &Self::State, a: Action) -> String {
        a.to_string()
    }
}

#[test]
fn one_player_games_learn_too() {
    // With one player, the average is kept at the traverser's own nodes (OpenSpiel's "next
    // player" is the player itself).
    let game = Arc::new(compile(&NameTheCard).unwrap());
    assert_eq!((game.num_players, game.infosets.len()), (1, 4));
    let uniform = nash_conv(&game, &solver(&game, Method::External, 0, 1).average_policy()).unwrap();
    for method in METHODS {
        let mut s = solver(&game, method, 0, 1);
        s.run(5_000, None);
        let x = nash_conv(&game, &s.average_policy()).unwrap();
        assert!(x < uniform / 20.0, "{method:?}: NashConv {x}, uniform {uniform}");
    }
}

/// Rounds played in pieces elsewhere ([`Mccfr::round_piece`] on a copy holding the round's
/// regrets, [`Mccfr::merge_pieces`] on the driver): against the snapshot alone they equal the
/// solver's own threads bit for bit; with each piece seeing its own updates, one piece per
/// round is the sequential run up to rounding.
#[test]
fn rounds_played_in_pieces_equal_the_solver_s_own_rounds() {
    let leduc = tree("leduc");
    for method in METHODS {
        let mut threads = solver(&leduc, method, 5, 2);
        threads.run(300, None); // two rounds of 128 and a part of one
        let (mut driver, mut worker) = (solver(&leduc, method, 5, 1), solver(&leduc, method, 5, 1));
        for (from, to) in [(0, 128), (128, 256), (256, 300)] {
            worker.set_regrets(driver.regrets()).unwrap();
            let mid = from + (to - from) / 2;
            let pieces = [worker.round_piece(from, mid, false).unwrap(), worker.round_piece(mid, to, false).unwrap()];
            driver.merge_pieces(&pieces, to).unwrap();
        }
        assert_eq!(driver.iteration(), 300);
        assert_eq!(bits(&driver), bits(&threads), "{method:?}");

        let mut sequential = solver(&leduc, method, 5, 1);
        sequential.run(300, None);
        let mut driver = solver(&leduc, method, 5, 1);
        for (from, to) in [(0, 100), (100, 300)] {
            worker.set_regrets(driver.regrets()).unwrap();
            let piece = worker.round_piece(from, to, true).unwrap();
            driver.merge_pieces(&[piece], to).unwrap();
        }
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + y.abs()));
        assert!(close(driver.regrets(), sequential.regrets()), "{method:?}");
        assert!(close(driver.cumulative_policy(), sequential.cumulative_policy()), "{method:?}");
    }
    let mut s = solver(&leduc, Method::External, 0, 1);
    assert!(s.merge_pieces(&[(vec![0.0; 3], vec![0.0; 3])], 1).is_err());
    assert!(s.set_regrets(&[1.0]).is_err());
    assert!(s.round_piece(5, 4, true).is_err());
}
