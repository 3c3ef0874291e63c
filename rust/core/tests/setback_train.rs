//! Setback training in the core: reproducibility, exact resume, files, average strategies.

mod common;

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
        assert!(refused.contains("expected \"SBCKPT\""), "{refused}");
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
