//! Learned Skat policies: imitation of the `rules` agent from its self-play log, reproducible
//! for a seed; the `net:DIR` agent plays whole matches legally; bad policy directories are
//! refused.

use cfrkit_core::arena::log::LogWriter;
use cfrkit_core::arena::quiet;
use cfrkit_core::games::skat::learned::{SkatPolicies, KINDS};
use cfrkit_core::games::skat::matches::{log_header, run_match, MatchSettings};
use cfrkit_core::games::skat::registry;
use cfrkit_core::learn::TrainSettings;
use cfrkit_core::learn::{imitate, samples_from_logs};
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cfrkit-learned-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A log of `deals` deals of `rules` against itself.
fn rules_log(dir: &Path, deals: u64) -> PathBuf {
    let path = dir.join("rules.jsonl");
    let rules = registry::parse("rules").unwrap();
    let log = LogWriter::create(&path, &log_header(vec!["rules".into(), "rules".into()], 11)).unwrap();
    let s = MatchSettings { seed: 11, threads: 2, first_deal: 0 };
    run_match(rules.as_ref(), rules.as_ref(), deals, &s, Some(&log), &mut quiet).unwrap();
    log.finish().unwrap();
    path
}

#[test]
fn imitating_rules_beats_the_frequency_baseline_and_is_reproducible() {
    let dir = temp("imitate");
    let log = rules_log(&dir, 400);
    let samples = samples_from_logs::<SkatPolicies>(std::slice::from_ref(&log)).unwrap();
    let by_kind: Vec<(&str, usize)> = KINDS.iter().zip(&samples).map(|(k, s)| (k.0, s.len())).collect();
    assert!(by_kind.iter().filter(|k| k.1 > 1000).count() >= 3, "{by_kind:?}");
    let settings = TrainSettings { hidden: vec![64, 64], epochs: 8, batch: 128, seed: 3, ..TrainSettings::default() };
    let out = dir.join("policy");
    let report = imitate::<SkatPolicies>(std::slice::from_ref(&log), &out, &settings, &mut |_, _, _| Ok(())).unwrap();
    for (kind, r) in &report {
        if kind.starts_with("cards-") && r.heldout_samples > 500 {
            assert!(r.heldout_accuracy > 0.7 && r.heldout_accuracy > r.baseline_accuracy + 0.2, "{kind}: {r:?}");
        }
    }
    assert!(report.iter().any(|(k, _)| k == "cards-suit-defender"), "{report:?}");
    // The same logs, settings and seed give the same networks, byte for byte.
    let small = rules_log(&temp("small"), 60);
    let quick = TrainSettings { epochs: 2, ..settings.clone() };
    let (a, b) = (temp("a"), temp("b"));
    imitate::<SkatPolicies>(std::slice::from_ref(&small), &a, &quick, &mut |_, _, _| Ok(())).unwrap();
    imitate::<SkatPolicies>(std::slice::from_ref(&small), &b, &quick, &mut |_, _, _| Ok(())).unwrap();
    let file = "cards-suit-defender.safetensors";
    assert_eq!(std::fs::read(a.join(file)).unwrap(), std::fs::read(b.join(file)).unwrap());

    // The agent plays whole matches legally (the match loop checks every action).
    let net = registry::parse(&format!("net:{}", out.display())).unwrap();
    assert_eq!(net.name(), format!("net:{}", out.display()));
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 99, threads: 2, first_deal: 0 };
    let r = run_match(net.as_ref(), rules.as_ref(), 30, &s, None, &mut quiet).unwrap();
    assert_eq!(r.pair.games, 180);
    let sampled = registry::parse(&format!("net:{},sample=1", out.display())).unwrap();
    run_match(sampled.as_ref(), rules.as_ref(), 10, &s, None, &mut quiet).unwrap();

    // Bad directories, options and descriptions are refused with what is wrong.
    for (spec, want) in [
        ("net:/nonexistent/policy".to_string(), "model.json"),
        (format!("net:{},sample=2", out.display()), "sample=2"),
        ("net:".to_string(), "net"),
    ] {
        let e = registry::parse(&spec).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{spec}: {e}");
    }
    std::fs::write(a.join("model.json"), "{\"format\": \"other\"}").unwrap();
    let e = registry::parse(&format!("net:{}", a.display())).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("not a cfrkit policy"), "{e}");
    std::fs::write(b.join(file), b"garbage").unwrap();
    assert!(registry::parse(&format!("net:{}", b.display())).is_err());
}
