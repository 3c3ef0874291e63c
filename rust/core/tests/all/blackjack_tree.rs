//! Blackjack++ trees: node counts against the original's, the direct builder against the
//! generic compilation, invariants, and size errors.

use cfrkit_core::games::blackjack::{dump_nodes, Blackjack};
use cfrkit_core::games::load_game;
use cfrkit_core::tree::{compile, NodeKind, PublicTree};
use cfrkit_core::Error;

fn game(up: [i64; 3], max_hits: i64) -> Blackjack {
    Blackjack::new(&up, max_hits).unwrap()
}

fn chance_nodes(t: &PublicTree) -> usize {
    t.kind.iter().filter(|&&k| k == NodeKind::Chance).count()
}

#[test]
fn node_counts_equal_the_originals() {
    // (up cards, max_hits, nodes in the original's count, decision nodes)
    let table = [
        ([1, 1, 1], 1, 133, 12),
        ([1, 1, 1], 2, 13_553, 1_232),
        ([1, 1, 1], 3, 1_285_417, 116_856),
        ([6, 6, 2], 1, 133, 12),
        ([6, 6, 2], 2, 13_553, 1_232),
    ];
    for (up, mh, nodes, decisions) in table {
        let g = game(up, mh);
        let c = g.shape().total();
        assert_eq!((c.original_nodes(), c.decisions), (nodes, decisions), "{}", g.spec_string());
        let t = g.build().unwrap();
        assert_eq!(t.decisions.len() as u64, decisions);
        assert_eq!(chance_nodes(&t) as u64, decisions, "one chance node per Hit");
        assert_eq!((t.num_nodes() - chance_nodes(&t)) as u64, nodes);
        assert_eq!(t.num_nodes() as u64, c.nodes);
        assert_eq!(t.edge_child.len() as u64, c.edges);
        assert_eq!(t.infosets.len() as u64, 10 * decisions);
    }
}

/// Asserts that two trees are the same tree: same arrays, and the same contents behind the
/// deduplicated row indices (whose numbering depends on the build order).
fn assert_same_tree(a: &PublicTree, b: &PublicTree) {
    assert_eq!(a.spec, b.spec);
    assert_eq!(
        (a.num_players, a.constant_sum, a.num_lanes, a.root),
        (b.num_players, b.constant_sum, b.num_lanes, b.root)
    );
    assert_eq!(a.deal_nodes, b.deal_nodes);
    assert_eq!(a.lane_prob, b.lane_prob);
    assert_eq!(a.lane_names, b.lane_names);
    assert_eq!(a.kind, b.kind);
    assert_eq!(a.player, b.player);
    assert_eq!(a.first_edge, b.first_edge);
    assert_eq!(a.num_edges, b.num_edges);
    assert_eq!(a.subtree_size, b.subtree_size);
    assert_eq!(a.height, b.height);
    assert_eq!(a.edge_child, b.edge_child);
    assert_eq!(a.edge_action, b.edge_action);
    for n in 0..a.num_nodes() {
        match a.kind[n] {
            NodeKind::Terminal => {
                for p in 0..a.num_players {
                    assert_eq!(a.payoffs(n, p), b.payoffs(n, p), "payoffs of node {n}");
                }
            }
            NodeKind::Chance => {
                for e in a.edges(n) {
                    assert_eq!(a.prob_row(a.edge_prob_row[e]), b.prob_row(b.edge_prob_row[e]), "edge {e}");
                }
            }
            NodeKind::Decision => {
                assert_eq!(a.aux[n], b.aux[n]);
                let (da, db) = (&a.decisions[a.aux[n] as usize], &b.decisions[b.aux[n] as usize]);
                assert_eq!((da.base, da.slots), (db.base, db.slots));
                assert_eq!(a.lane_map(da), b.lane_map(db));
            }
        }
    }
    assert_eq!(a.infosets.keys, b.infosets.keys);
    assert_eq!(a.infosets.player, b.infosets.player);
    assert_eq!(a.infosets.node, b.infosets.node);
    assert_eq!(a.infosets.offset, b.infosets.offset);
    assert_eq!(a.infosets.total_actions, b.infosets.total_actions);
}

#[test]
fn direct_builder_equals_generic_compilation() {
    for (up, mh) in [([6, 6, 2], 1), ([1, 1, 1], 1), ([1, 10, 4], 2), ([9, 3, 7], 2), ([10, 10, 10], 2)] {
        let g = game(up, mh);
        let direct = g.build().unwrap();
        let generic = compile(&g).unwrap();
        assert!(direct.num_nodes() > 100, "{}", g.spec_string());
        assert_same_tree(&direct, &generic);
    }
}

#[test]
fn build_is_identical_for_any_thread_count() {
    let g = game([2, 3, 4], 3);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| g.build().unwrap());
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap().install(|| g.build().unwrap());
    assert_same_tree(&one, &four);
    assert_eq!(one.aux, four.aux);
    assert_eq!(one.payoff_rows, four.payoff_rows);
    assert_eq!(one.edge_prob_row, four.edge_prob_row);
}

#[test]
fn tree_invariants_hold() {
    let t = game([1, 1, 1], 3).build().unwrap();
    assert!((t.lane_prob.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((t.lane_prob[0] - 1.0 / 169.0).abs() < 1e-15); // ace, ace
    assert!((t.lane_prob[99] - 16.0 / 169.0).abs() < 1e-15); // ten, ten
    for n in 0..t.num_nodes() {
        match t.kind[n] {
            NodeKind::Chance => {
                let total: f64 = t.edges(n).map(|e| t.prob_row(t.edge_prob_row[e])[17]).sum();
                assert!((total - 1.0).abs() < 1e-12);
            }
            NodeKind::Terminal => {
                let (p0, p1) = (t.payoffs(n, 0), t.payoffs(n, 1));
                for l in 0..t.num_lanes {
                    let dealer = 3.0 - p0[l] - p1[l];
                    // The dealer gets 0, or the whole pot (at least 3) when both bust.
                    assert!(dealer == 0.0 || dealer >= 3.0, "node {n} lane {l}: {} {}", p0[l], p1[l]);
                }
            }
            NodeKind::Decision => {
                let d = t.decisions[t.aux[n] as usize];
                let map = t.lane_map(&d);
                let own = |l: usize| if t.player[n] == 0 { l / 10 } else { l % 10 };
                assert!((0..100).all(|l| map[l] as usize == own(l)));
                let key = &t.infosets.keys[d.base as usize + 6];
                assert!(key.starts_with("7|"), "{key}");
            }
        }
        assert!(t.subtree_size[n] as usize <= n + 1, "children come before their parent");
    }
    assert_eq!(t.root as usize, t.num_nodes() - 1);
    assert_eq!(&t.infosets.keys[t.decisions[t.aux[t.root as usize] as usize].base as usize], "1|");
}

#[test]
fn dump_nodes_name_decisions_like_the_original() {
    let t = game([6, 6, 2], 1).build().unwrap();
    let nodes = dump_nodes(&t).unwrap();
    let paths: Vec<(&str, u8)> = nodes.iter().map(|d| (d.path.as_str(), d.player)).collect();
    let mut want: Vec<(String, u8)> = vec![(String::new(), 0), ("s".into(), 1)];
    want.extend((1..=10).map(|c| (format!("h{c}"), 1)));
    for w in &want {
        assert!(paths.contains(&(w.0.as_str(), w.1)), "{w:?} missing from {paths:?}");
    }
    assert_eq!(nodes.len(), want.len());
    let t = game([1, 1, 1], 2).build().unwrap();
    let nodes = dump_nodes(&t).unwrap();
    let deep = nodes.iter().find(|d| d.path == "h1/h2/s").expect("P0 hits 1, P1 hits 2, P0 stands: P1 acts");
    assert_eq!(deep.player, 1);
    for (i, d) in nodes.iter().enumerate() {
        assert_eq!(t.aux[d.node as usize] as usize, i);
        let key = &t.infosets.keys[t.decisions[i].base as usize];
        assert_eq!(key, &format!("1|{}", d.path.replace('/', "")));
    }
}

#[test]
fn spec_strings_load_through_the_registry() {
    let t = load_game("blackjack(up=6-6-2,max_hits=1)").unwrap();
    assert_eq!(t.spec, "blackjack(up=6-6-2,max_hits=1)");
    assert_eq!(t.num_nodes(), 145);
    for (spec, needle) in [
        ("blackjack(up=6-6-11)", "11"),
        ("blackjack(up=6-6)", "exactly 3"),
        ("blackjack(up=6-6-2,max_hits=-2)", "-2"),
        ("blackjack(up=6-6-2,hits=2)", "hits"),
    ] {
        match load_game(spec) {
            Err(e @ Error::InvalidValue { .. }) => {
                assert!(e.to_string().contains(needle), "{spec}: {e}")
            }
            other => panic!("{spec}: expected an invalid-value error, got {:?}", other.map(|t| t.num_nodes())),
        }
    }
}

#[test]
fn trees_too_big_for_memory_are_refused_before_building() {
    // No hit limit with two aces up: far more than 2^32 nodes.
    let g = game([1, 1, 1], 0);
    let c = g.shape().total();
    assert!(c.nodes > u64::from(u32::MAX));
    match g.build() {
        Err(e @ Error::TooLarge(_)) => {
            let m = e.to_string();
            assert!(m.contains("blackjack(up=1-1-1,max_hits=0)") && m.contains("max_hits"), "{m}");
        }
        other => panic!("expected TooLarge, got {:?}", other.map(|t| t.num_nodes())),
    }
    assert!(matches!(load_game("blackjack(up=1-1-1,max_hits=0)"), Err(Error::TooLarge(_))));
    // A tree that fits the id range but not the memory given.
    let g = game([1, 1, 1], 3);
    let c = g.shape().total();
    let need = Blackjack::estimated_bytes(&c);
    assert!(need > 100 << 20 && need < 4 << 30, "{need}");
    assert!(matches!(g.check_size(&c, need / 2), Err(Error::TooLarge(_))));
    assert!(g.check_size(&c, need).is_ok());
}
