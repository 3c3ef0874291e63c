//! Solving Blackjack++: the spec's correct values and equilibrium with alternating CFR+, every
//! algorithm converging, and results independent of the thread count.

use cfrkit_core::cfr::{Algorithm, Solver, DCFR_DEFAULTS};
use cfrkit_core::eval::best_response::{expected_values, nash_conv};
use cfrkit_core::games;
use cfrkit_core::games::blackjack::{dump_nodes, Blackjack};
use cfrkit_core::tree::PublicTree;
use std::sync::Arc;

fn tree(up: [i64; 3], max_hits: i64) -> Arc<PublicTree> {
    Arc::new(Blackjack::new(&up, max_hits).unwrap().build().unwrap())
}

/// The average policy after `iterations` on the solver's engine for Blackjack++ (ranges).
fn solve(tree: &Arc<PublicTree>, algorithm: &str, iterations: u64, threads: usize) -> Vec<f64> {
    solve_on(tree, algorithm, iterations, threads, "ranges")
}

fn solve_on(tree: &Arc<PublicTree>, algorithm: &str, iterations: u64, threads: usize, engine: &str) -> Vec<f64> {
    solve_with(tree, algorithm, iterations, threads, engine, true)
}

fn solve_with(
    tree: &Arc<PublicTree>,
    algorithm: &str,
    iterations: u64,
    threads: usize,
    engine: &str,
    alternating: bool,
) -> Vec<f64> {
    let algo = Algorithm::parse(algorithm, DCFR_DEFAULTS).unwrap();
    let mut solver = games::solver(tree.clone(), None, algo, alternating, threads).unwrap();
    assert_eq!(solver.engine(), "ranges");
    if engine == "lanes" {
        solver.use_lanes().unwrap();
    }
    assert_eq!(solver.engine(), engine);
    assert_eq!(solver.run(iterations, None), iterations);
    solver.average_policy()
}

/// Probability of Hit for each down card 1..=10 at the decision node with dump path `path`.
fn hit_probs(tree: &PublicTree, policy: &[f64], path: &str) -> Vec<f64> {
    let nodes = dump_nodes(tree).unwrap();
    let d = nodes.iter().position(|d| d.path == path).unwrap_or_else(|| panic!("no decision at {path:?}"));
    let base = tree.decisions[d].base as usize;
    (0..10).map(|slot| policy[tree.infosets.offset[base + slot] as usize + 1]).collect()
}

/// (P0, P1, dealer) values and NashConv of `policy`.
fn evaluate(tree: &PublicTree, policy: &[f64]) -> ([f64; 3], f64) {
    let ev = expected_values(tree, policy).unwrap();
    ([ev[0], ev[1], 3.0 - ev[0] - ev[1]], nash_conv(tree, policy).unwrap())
}

#[test]
fn cfr_plus_reaches_the_correct_values_for_6_6_2() {
    let t = tree([6, 6, 2], 1);
    let policy = solve(&t, "cfr+", 10_000, 1);
    let ([p0, p1, dealer], nc) = evaluate(&t, &policy);
    assert!((p0 - 1.4518574).abs() < 1e-6, "P0 {p0}");
    assert!((p1 - 1.5481426).abs() < 1e-6, "P1 {p1}");
    assert!(dealer.abs() < 1e-6, "dealer {dealer}");
    assert!((0.0..1e-6).contains(&nc), "NashConv {nc}");

    // The equilibrium is pure: P0 hits with 2..=7 and stands on 1, 8, 9, 10; after P0 stands,
    // P1 hits with 2..=9.
    let root = hit_probs(&t, &policy, "");
    for (k, &h) in root.iter().enumerate() {
        let want = if (2..=7).contains(&(k + 1)) { 1.0 } else { 0.0 };
        assert!((h - want).abs() < 1e-3, "P0 with down card {}: hit {h}", k + 1);
    }
    let after_stand = hit_probs(&t, &policy, "s");
    for (k, &h) in after_stand.iter().enumerate() {
        let want = if (2..=9).contains(&(k + 1)) { 1.0 } else { 0.0 };
        assert!((h - want).abs() < 1e-3, "P1 with down card {} after P0 stands: hit {h}", k + 1);
    }
}

#[test]
fn cfr_plus_reaches_the_correct_values_for_1_1_1() {
    let t = tree([1, 1, 1], 1);
    let policy = solve(&t, "cfr+", 10_000, 2);
    let ([p0, p1, dealer], nc) = evaluate(&t, &policy);
    assert!((p0 - 1.4929274).abs() < 1e-6, "P0 {p0}");
    assert!((p1 - 1.5070726).abs() < 1e-6, "P1 {p1}");
    assert!(dealer.abs() < 1e-6, "dealer {dealer}");
    assert!((0.0..1e-6).contains(&nc), "NashConv {nc}");
}

#[test]
fn nash_conv_falls_as_the_spec_describes() {
    let t = tree([6, 6, 2], 1);
    let (_, nc100) = evaluate(&t, &solve(&t, "cfr+", 100, 1));
    let (_, nc1k) = evaluate(&t, &solve(&t, "cfr+", 1000, 1));
    // The spec: about 2e-4 after 100 iterations, 2e-6 after 1k.
    assert!(nc100 > 1e-5 && nc100 < 1e-3, "{nc100}");
    assert!(nc1k > 1e-7 && nc1k < 2e-5, "{nc1k}");
}

#[test]
fn every_algorithm_converges() {
    let t = tree([6, 6, 2], 1);
    let (_, uniform) = evaluate(&t, &solve(&t, "cfr", 0, 1));
    assert!(uniform > 0.1, "{uniform}");
    for algo in ["cfr", "cfr+", "lcfr", "dcfr", "pcfr+"] {
        let (v, nc) = evaluate(&t, &solve(&t, algo, 2000, 1));
        assert!(nc < 1e-3, "{algo}: NashConv {nc}");
        assert!((v[0] - 1.4518574).abs() < 1e-2, "{algo}: P0 {}", v[0]);
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let t = tree([1, 1, 1], 3);
    let one = solve(&t, "cfr+", 3, 1);
    let two = solve(&t, "cfr+", 3, 2);
    assert_eq!(one, two);
    let t = tree([2, 9, 5], 2);
    assert_eq!(solve(&t, "dcfr", 20, 1), solve(&t, "dcfr", 20, 3));
}

/// The two engines compute the same sums in different orders: their iterates agree up to
/// rounding, and where regrets tie exactly rounding may pick different iterates, so the check
/// is on what both converge to.
#[test]
fn range_engine_converges_like_the_lane_engine() {
    let t = tree([6, 6, 2], 1);
    let ([p0, p1, _], nc) = evaluate(&t, &solve_on(&t, "cfr+", 10_000, 1, "lanes"));
    assert!((p0 - 1.4518574).abs() < 1e-6 && (p1 - 1.5481426).abs() < 1e-6, "{p0} {p1}");
    assert!((0.0..1e-6).contains(&nc), "NashConv {nc}");
    for (up, mh, algo) in
        [([1, 1, 1], 2, "cfr+"), ([2, 9, 5], 2, "dcfr"), ([3, 3, 3], 2, "pcfr+"), ([10, 4, 1], 2, "cfr")]
    {
        let t = tree(up, mh);
        let (va, na) = evaluate(&t, &solve_on(&t, algo, 300, 1, "lanes"));
        let (vb, nb) = evaluate(&t, &solve(&t, algo, 300, 2));
        assert!((va[0] - vb[0]).abs() < 1e-3 && (va[1] - vb[1]).abs() < 1e-3, "{up:?} {algo}: {va:?} {vb:?}");
        assert!(nb < 2.0 * na.max(1e-4), "{up:?} {algo}: NashConv {nb} (lanes: {na})");
    }
    // Simultaneous updates (traversals first, then the updates) too.
    let t = tree([2, 9, 5], 2);
    let (va, na) = evaluate(&t, &solve_with(&t, "cfr+", 300, 1, "lanes", false));
    let (vb, nb) = evaluate(&t, &solve_with(&t, "cfr+", 300, 2, "ranges", false));
    assert!((va[0] - vb[0]).abs() < 1e-3 && (va[1] - vb[1]).abs() < 1e-3, "simultaneous: {va:?} {vb:?}");
    assert!(nb < 2.0 * na.max(1e-4), "simultaneous: NashConv {nb} (lanes: {na})");
}

/// The range walk computes showdowns from the rules, so a tree of the same shape with other
/// payoffs (e.g. a Python game that borrows the spec name) takes the lane walk.
#[test]
fn trees_with_other_payoffs_take_the_lane_walk() {
    let t = tree([6, 6, 2], 1);
    let algo = Algorithm::parse("cfr+", DCFR_DEFAULTS).unwrap();
    assert_eq!(games::solver(t.clone(), None, algo, true, 1).unwrap().engine(), "ranges");
    assert_eq!(Solver::new(t.clone(), algo, true, 1).unwrap().engine(), "lanes");
    let mut other = (*t).clone();
    let last = other.payoff_rows.len() - 1;
    other.payoff_rows[last] += 1.0;
    assert_eq!(games::solver(Arc::new(other), None, algo, true, 1).unwrap().engine(), "lanes");
}
