//! Learned Schafkopf policies: imitation of the `rules` agent from its self-play log beats the
//! most-taken-action baseline, and the `net:DIR` agent plays whole matches legally.

use cfrkit_core::arena::log::LogWriter;
use cfrkit_core::arena::quiet;
use cfrkit_core::games::schafkopf::learned::SchafkopfPolicies;
use cfrkit_core::games::schafkopf::matches::{log_header, run_match, MatchSettings};
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::learn::{imitate, TrainSettings};

#[test]
fn imitating_rules_and_playing_the_policy() {
    let dir = std::env::temp_dir().join(format!("cfrkit-sk-learned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rules.jsonl");
    let rules = registry::parse("rules").unwrap();
    let s = MatchSettings { seed: 4, threads: 2, ..MatchSettings::default() };
    let log = LogWriter::create(&path, &log_header(vec!["rules".into(), "rules".into()], &s)).unwrap();
    run_match(rules.as_ref(), rules.as_ref(), 1500, &s, Some(&log), &mut quiet).unwrap();
    log.finish().unwrap();
    let settings = TrainSettings { hidden: vec![64, 64], epochs: 6, batch: 128, seed: 1, ..TrainSettings::default() };
    let out = dir.join("policy");
    let report = imitate::<SchafkopfPolicies>(&[path], &out, &settings, &mut |_, _, _| Ok(())).unwrap();
    let sauspiel = report.iter().find(|(k, _)| k == "cards-sauspiel-defender").map(|x| &x.1).unwrap();
    assert!(sauspiel.heldout_samples > 500, "{report:?}");
    // The seed's rule-based player draws among its options at random, which caps what any
    // imitation can reach.
    assert!(sauspiel.heldout_accuracy > sauspiel.baseline_accuracy + 0.08, "{sauspiel:?}");
    let net = registry::parse(&format!("net:{}", out.display())).unwrap();
    let r = run_match(net.as_ref(), rules.as_ref(), 30, &MatchSettings { seed: 8, ..s }, None, &mut quiet).unwrap();
    assert_eq!(r.games, 60);
    // A Skat policy is not a Schafkopf one.
    let e = cfrkit_core::games::skat::registry::parse(&format!("net:{}", out.display())).err().unwrap().to_string();
    assert!(e.contains("not of skat"), "{e}");
}
