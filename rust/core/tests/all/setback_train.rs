//! Setback training in the core: reproducibility, exact resume, files, average strategies.

use super::common;

use cfrkit_core::games::setback::store::{average_strategy, Strategy};
use cfrkit_core::games::setback::train::{load_checkpoint, save_checkpoint, Algo, Trainer};
use common::table_of;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(3600);

#[test]
fn split_and_resumed_runs_equal_one_run() {
    let stop = AtomicBool::new(false);
    for algo in [Algo::CsCfr, Algo::CsCfr2x, Algo::CsCfrMerged, Algo::EsMccfr] {
        let mut whole = Trainer::new(algo, 42, 1).unwrap();
        assert_eq!(whole.run(5, LONG, &stop), 5);
        let mut part = Trainer::new(algo, 42, 1).unwrap();
        assert_eq!(part.run(2, LONG, &stop), 2);
        let dir = std::env::temp_dir().join(format!("cfrkit-setback-train-{}-{}", std::process::id(), algo.name()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ck.cfrkit");
        save_checkpoint(&part, &path).unwrap();
        let mut resumed = load_checkpoint(&path, 1, None).unwrap();
        assert_eq!((resumed.algo(), resumed.seed(), resumed.stats().iterations), (algo, 42, 2));
        assert_eq!(resumed.run(5, LONG, &stop), 3);
        assert_eq!(resumed.run(5, LONG, &stop), 0, "the target is reached");
        assert_eq!(table_of(&resumed), table_of(&whole));
        assert_eq!(resumed.stats().root_value, whole.stats().root_value);

        let s = whole.strategy();
        let sp = dir.join("st.cfrkit");
        s.save(&sp).unwrap();
        let back = Strategy::load(&sp).unwrap();
        assert_eq!((back.keys.clone(), back.offsets.clone()), (s.keys.clone(), s.offsets.clone()));
        assert_eq!(back.probs, s.probs);
        for &k in s.keys.iter().step_by(97) {
            assert_eq!(back.get(k).unwrap(), whole.average(k).unwrap().as_slice());
        }
        let refused = load_checkpoint(&sp, 1, None).err().expect("a strategy file is no checkpoint").to_string();
        assert!(refused.contains("a Setback strategy, not a Setback training checkpoint"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_zero_budget_runs_nothing_and_a_stop_flag_stops() {
    let mut t = Trainer::new(Algo::CsCfr, 0, 2).unwrap();
    assert_eq!(t.run(10, Duration::ZERO, &AtomicBool::new(false)), 0);
    assert_eq!(t.run(10, LONG, &AtomicBool::new(true)), 0);
    assert_eq!(t.stats().iterations, 0);
    assert_eq!(t.run(4, LONG, &AtomicBool::new(false)), 4);
    let s = t.stats();
    assert!(s.infosets > 1000 && (s.bytes as f64) < 64.0 * s.infosets as f64, "{s:?}");
}

#[test]
fn average_strategy_threshold() {
    assert_eq!(average_strategy(&[0.0, 0.0, 0.0, 0.0]), vec![0.25; 4]);
    assert_eq!(average_strategy(&[3.0, 1.0]), vec![0.75, 0.25]);
    let p = average_strategy(&[10_000.0, 5.0, 5_000.0]);
    assert_eq!(p[1], 0.0, "below 0.001 is zeroed");
    assert!((p[0] - 2.0 / 3.0).abs() < 1e-6 && (p[2] - 1.0 / 3.0).abs() < 1e-6);
    assert!(Algo::parse("vanilla").unwrap_err().to_string().contains("cs-cfr, cs-cfr-2x, cs-cfr-merged, es-mccfr"));
}

/// Rounds played in pieces on copies of the trainer (cluster workers): one piece from an empty
/// table merged into another empty one is the sequential run exactly; a round of two pieces
/// adds their infosets and leaves the others alone; bad pieces are refused.
#[test]
fn pieces_of_a_round_merge_into_the_trainer() {
    let stop = AtomicBool::new(false);
    let mut sequential = Trainer::new(Algo::CsCfr, 9, 1).unwrap();
    sequential.run(6, LONG, &stop);
    let mut worker = Trainer::new(Algo::CsCfr, 9, 1).unwrap();
    let piece = worker.train_piece(0, 6, &stop).unwrap();
    assert!(piece.keys.windows(2).all(|w| w[0] < w[1]) && !piece.keys.is_empty());
    let mut driver = Trainer::new(Algo::CsCfr, 9, 1).unwrap();
    driver.merge_pieces(&[piece], 6).unwrap();
    assert_eq!(table_of(&driver), table_of(&sequential));
    assert_eq!(driver.stats().root_value, sequential.stats().root_value);
    assert_eq!(driver.stats().iterations, 6);

    // The next round in two pieces, each on a copy of the driver's table.
    let dir = std::env::temp_dir().join(format!("cfrkit-setback-pieces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("snapshot.cfrkit");
    save_checkpoint(&driver, &path).unwrap();
    let pieces: Vec<_> = [(6, 8), (8, 10)]
        .iter()
        .map(|&(a, b)| load_checkpoint(&path, 1, None).unwrap().train_piece(a, b, &stop).unwrap())
        .collect();
    let mut keys: std::collections::BTreeSet<u64> = table_of(&driver).into_iter().map(|e| e.0).collect();
    keys.extend(pieces.iter().flat_map(|p| p.keys.iter().copied()));
    let before = table_of(&driver);
    driver.merge_pieces(&pieces, 10).unwrap();
    assert_eq!(driver.stats().infosets, keys.len(), "every key of the snapshot and of the pieces");
    assert_eq!(driver.stats().iterations, 10);
    // An infoset neither piece touched keeps its accumulators.
    let after = table_of(&driver);
    let untouched = before.iter().find(|e| pieces.iter().all(|p| p.keys.binary_search(&e.0).is_err())).unwrap();
    assert!(after.contains(untouched));
    let mut bad = pieces[0].clone();
    bad.values.pop();
    assert!(driver.merge_pieces(&[bad], 11).is_err());
    assert!(driver.merge_pieces(&[], 9).is_err(), "back in time");
    std::fs::remove_dir_all(&dir).unwrap();
}
