//! Kuhn and Leduc: sizes, exact values, OpenSpiel's CFR / CFR+ trajectories, invariants.

use cfrkit_core::cfr::{Algorithm, Solver, DCFR_DEFAULTS};
use cfrkit_core::eval::best_response::{expected_values, exploitability, nash_conv};
use cfrkit_core::games::load_game;
use cfrkit_core::tree::PublicTree;
use std::sync::Arc;

fn uniform(tree: &PublicTree) -> Vec<f64> {
    let mut p = vec![0.0; tree.infosets.total_actions];
    for i in 0..tree.infosets.len() {
        let o = tree.infosets.offset[i] as usize;
        let n = tree.infosets.num_actions(i);
        p[o..o + n].fill(1.0 / n as f64);
    }
    p
}

fn solver(spec: &str, algo: &str, threads: usize) -> Solver {
    let tree = Arc::new(load_game(spec).unwrap());
    Solver::new(tree, Algorithm::parse(algo, DCFR_DEFAULTS).unwrap(), true, threads).unwrap()
}

/// Equality after rounding both numbers to six significant digits.
fn assert_six_digits(actual: f64, expected: f64, what: &str) {
    assert_eq!(format!("{actual:.5e}"), format!("{expected:.5e}"), "{what}: {actual} vs {expected}");
}

#[test]
fn sizes_match_openspiel() {
    let kuhn = load_game("kuhn").unwrap();
    assert_eq!(kuhn.infosets.len(), 12);
    assert_eq!(kuhn.num_histories(), 58);
    let leduc = load_game("leduc").unwrap();
    assert_eq!(leduc.infosets.len(), 936);
    assert_eq!(leduc.num_histories(), 9457);
    assert_eq!(leduc.num_lanes, 30);
}

#[test]
fn uniform_policy_exploitability() {
    let kuhn = load_game("kuhn").unwrap();
    assert!((exploitability(&kuhn, &uniform(&kuhn)).unwrap() - 0.458333333).abs() < 1e-6);
    let leduc = load_game("leduc").unwrap();
    assert!((exploitability(&leduc, &uniform(&leduc)).unwrap() - 2.37361).abs() < 1e-5);
}

#[test]
fn trajectories_equal_openspiel() {
    // OpenSpiel 2.0.2, exploitability after 10, 100, 1000 iterations (shared/reference.md).
    let cases: [(&str, &str, [f64; 3]); 4] = [
        ("kuhn", "cfr", [0.0686988, 0.00822598, 0.000937617]),
        ("kuhn", "cfr+", [0.0326871, 0.00119440, 8.73653e-05]),
        ("leduc", "cfr", [0.888579, 0.0957164, 0.0118178]),
        ("leduc", "cfr+", [0.610439, 0.0134160, 0.000257152]),
    ];
    for (game, algo, expected) in cases {
        let mut s = solver(game, algo, 1);
        let mut done = 0;
        for (n, want) in [10u64, 100, 1000].into_iter().zip(expected) {
            s.run(n - done, None);
            done = n;
            let got = exploitability(s.tree(), &s.average_policy()).unwrap();
            assert_six_digits(got, want, &format!("{game} {algo} after {n}"));
        }
    }
}

#[test]
fn solved_values_are_the_game_values() {
    let mut s = solver("kuhn", "cfr+", 1);
    s.run(2000, None);
    let v = expected_values(s.tree(), &s.average_policy()).unwrap();
    assert!((v[0] + 1.0 / 18.0).abs() < 1e-4, "{v:?}");
    assert!((v[0] + v[1]).abs() < 1e-12);
    let mut s = solver("leduc", "cfr+", 1);
    s.run(2000, None);
    let v = expected_values(s.tree(), &s.average_policy()).unwrap();
    assert!((v[0] + 0.0856064).abs() < 1e-4, "{v:?}");
}

#[test]
fn other_algorithms_converge_on_leduc() {
    for algo in ["dcfr", "pcfr+", "lcfr"] {
        let mut s = solver("leduc", algo, 1);
        s.run(1000, None);
        let e = exploitability(s.tree(), &s.average_policy()).unwrap();
        let bound = if algo == "lcfr" { 2e-2 } else { 1e-3 };
        assert!(e < bound, "{algo}: exploitability {e} after 1000 iterations");
    }
}

#[test]
fn parallel_equals_serial_bit_for_bit() {
    for algo in ["cfr", "cfr+", "dcfr", "pcfr+"] {
        let mut a = solver("leduc", algo, 1);
        let mut b = solver("leduc", algo, 2);
        b.set_split_size(2);
        a.run(30, None);
        b.run(30, None);
        assert_eq!(a.average_policy(), b.average_policy(), "{algo}");
        assert_eq!(a.regrets(), b.regrets(), "{algo}");
    }
}

#[test]
fn policies_are_distributions() {
    let mut s = solver("leduc", "pcfr+", 2);
    s.run(50, None);
    let tree = s.tree().clone();
    for pol in [s.average_policy(), s.current_policy().to_vec()] {
        for i in 0..tree.infosets.len() {
            let o = tree.infosets.offset[i] as usize;
            let n = tree.infosets.num_actions(i);
            let sum: f64 = pol[o..o + n].iter().sum();
            assert!((sum - 1.0).abs() < 1e-12 && pol[o..o + n].iter().all(|&p| p >= 0.0));
        }
    }
    assert!(nash_conv(&tree, &s.average_policy()).unwrap() >= 0.0);
}

#[test]
fn checkpoint_resume_continues_exactly() {
    let dir = std::env::temp_dir().join(format!("cfrkit-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("leduc.solver");
    let mut straight = solver("leduc", "cfr+", 1);
    straight.run(60, None);
    let mut first = solver("leduc", "cfr+", 1);
    first.run(25, None);
    first.save_checkpoint(&path).unwrap();
    let mut resumed = solver("leduc", "cfr+", 2);
    resumed.load_checkpoint(&path).unwrap();
    assert_eq!(resumed.iteration(), 25);
    resumed.run(35, None);
    assert_eq!(resumed.average_policy(), straight.average_policy());
    assert_eq!(resumed.regrets(), straight.regrets());

    let mut other_algo = solver("leduc", "cfr", 1);
    let e = other_algo.load_checkpoint(&path).unwrap_err().to_string();
    assert!(e.contains("algorithm") && e.contains("cfr+"), "{e}");
    let mut other_game = solver("kuhn", "cfr+", 1);
    assert!(other_game.load_checkpoint(&path).unwrap_err().to_string().contains("leduc"));
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = solver("leduc", "cfr+", 1).load_checkpoint(&path).unwrap_err().to_string();
    assert!(e.contains("checksum"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
