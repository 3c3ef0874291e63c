//! The bootstrap stage and the strategy database: training, exact resume, payoffs, export, and
//! the database player against the table player.

use super::common;

use cfrkit_core::games::setback::bootstrap::{self, WIN_BONUS};
use cfrkit_core::games::setback::cards;
use cfrkit_core::games::setback::keys;
use cfrkit_core::games::setback::play::database::{export, Database};
use cfrkit_core::games::setback::play::game::{Game, Move};
use cfrkit_core::games::setback::play::random::RandomAgent;
use cfrkit_core::games::setback::play::strategy_agent::{Source, StrategyAgent, TableMode, Tables};
use cfrkit_core::games::setback::registry;
use cfrkit_core::games::setback::rules::{Deal, Phase};
use cfrkit_core::games::setback::store::{Stage, Strategy};
use cfrkit_core::games::setback::train::{load_checkpoint, save_checkpoint, Algo, Trainer};
use cfrkit_core::search::MoveModel;
use common::table_of;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(3600);

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cfrkit-setback-db-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn baseline(deals: u64) -> Arc<Strategy> {
    let mut t = Trainer::new(Algo::CsCfr, 7, 2).unwrap();
    t.run(deals, LONG, &AtomicBool::new(false));
    Arc::new(t.strategy())
}

#[test]
fn bootstrap_training_resumes_exactly_and_holds_only_score_aware_auction_keys() {
    let stop = AtomicBool::new(false);
    let base = baseline(4);
    let mut whole = Trainer::bootstrap(base.clone(), 3, 1).unwrap();
    assert_eq!(whole.stage(), Stage::Bootstrap);
    assert_eq!(whole.run(300, LONG, &stop), 300);
    let mut part = Trainer::bootstrap(base.clone(), 3, 1).unwrap();
    part.run(120, LONG, &stop);
    let dir = temp_dir("resume");
    let path = dir.join("ck.cfrkit");
    save_checkpoint(&part, &path).unwrap();
    let mut resumed = load_checkpoint(&path, 1, Some(base.clone())).unwrap();
    assert_eq!(resumed.run(300, LONG, &stop), 180);
    assert_eq!(table_of(&resumed), table_of(&whole));
    assert_eq!(resumed.stats().root_value, whole.stats().root_value);

    // A bootstrap checkpoint needs its own baseline.
    let e = load_checkpoint(&path, 1, None).err().unwrap().to_string();
    assert!(e.contains("the baseline strategy this bootstrap checkpoint was trained with"), "{e}");
    let e = load_checkpoint(&path, 1, Some(baseline(3))).err().unwrap().to_string();
    assert!(e.contains("fingerprint"), "{e}");
    assert!(Trainer::bootstrap(Arc::new(whole.strategy()), 0, 1).is_err(), "the baseline must be baseline");

    let s = whole.strategy();
    assert_eq!(s.stage, Stage::Bootstrap);
    assert!(s.keys.len() > 500, "{}", s.keys.len());
    for &k in &s.keys {
        assert!(keys::is_bootstrap(k) && keys::is_valid(k));
        assert_eq!(keys::parse_key(&keys::key_string(k)).unwrap(), k);
    }
    let sp = dir.join("boot.cfrkit");
    s.save(&sp).unwrap();
    let back = Strategy::load(&sp).unwrap();
    assert_eq!((back.stage, back.keys.len(), back.probs.clone()), (Stage::Bootstrap, s.keys.len(), s.probs.clone()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bootstrap_payoff_adds_the_game_win_bonus() {
    // With an empty baseline every playout decision takes the first abstract action, so the
    // deal's score is fixed; the payoff then depends only on the game score.
    let empty = Trainer::new(Algo::CsCfr, 0, 1).unwrap().strategy();
    let mut checked = 0;
    for seed in 0..40 {
        let mut d = Deal::seeded(seed);
        for b in [2, 0, 0, 0] {
            d.bid(b).unwrap();
        }
        let s = bootstrap::baseline_playout(&empty, &d).score().unwrap();
        let diff = (s[0] - s[1]) as f64;
        // Far from 11: the deal-point difference.
        assert_eq!(bootstrap::payoff(&empty, &d, [0, 0]), diff);
        // At 10–10 whoever scores more than the other wins with 11 or more.
        let at_ten = bootstrap::payoff(&empty, &d, [10, 10]);
        let want = match s[0].cmp(&s[1]) {
            _ if s[0].max(s[1]) < 1 => diff,
            std::cmp::Ordering::Greater => WIN_BONUS,
            std::cmp::Ordering::Less => -WIN_BONUS,
            std::cmp::Ordering::Equal => diff,
        };
        assert_eq!(at_ten, want, "deal {seed}: score {s:?}");
        checked += (at_ten.abs() == WIN_BONUS) as u32;
    }
    assert!(checked > 10, "{checked}");
    // All pass: 0 whatever the score.
    let mut d = Deal::seeded(1);
    for _ in 0..4 {
        d.bid(0).unwrap_or(());
    }
    assert_eq!(bootstrap::payoff(&empty, &d, [10, 10]), 0.0);
}

#[test]
fn the_database_player_chooses_what_the_table_player_chooses() {
    let stop = AtomicBool::new(false);
    let base = baseline(30);
    let mut boot = Trainer::bootstrap(base.clone(), 1, 2).unwrap();
    boot.run(3000, LONG, &stop);
    let boot = Arc::new(boot.strategy());
    let dir = temp_dir("roundtrip");
    let db_path = dir.join("setback.db");
    let stats = export(&base, &boot, &db_path).unwrap();
    let playout_keys = base.keys.iter().filter(|&&k| keys::key_string(k).starts_with(['.', 'E', 'H'])).count() as u64;
    assert_eq!((stats.baseline_rows, stats.bootstrap_rows), (playout_keys, boot.keys.len() as u64));
    assert!(playout_keys > 1000 && playout_keys < base.keys.len() as u64);
    let db = Arc::new(Database::open(&db_path).unwrap());
    assert_eq!(db.len().unwrap(), stats.baseline_rows + stats.bootstrap_rows);
    // The original's auction keys are not in the database; a bootstrap key is, with its argmax.
    let auction = base.keys.iter().find(|&&k| keys::key_string(k).starts_with(['0', '2', '3', 'D'])).unwrap();
    assert_eq!(db.action_index(&keys::key_string(*auction)).unwrap(), None);
    assert_eq!(db.action_index(&keys::key_string(boot.keys[5])).unwrap(), boot.best(boot.keys[5]));

    let tables = StrategyAgent::new(
        Arc::new(Tables { baseline: base.clone(), bootstrap: Some(boot.clone()), mode: TableMode::Argmax }),
        "tables",
    );
    let player = StrategyAgent::new(db.clone(), "db");
    let sampled = StrategyAgent::new(
        Arc::new(Tables { baseline: base.clone(), bootstrap: Some(boot.clone()), mode: TableMode::Sampled }),
        "sampled",
    );
    let parsed = registry::agent(&format!("db:{}", db_path.display())).unwrap();
    // As models of their own play (PIMC's inference), the agents give the legal moves
    // probabilities that sum to 1: all of it to the move an argmax player makes, some of it to
    // the move a sampling player draws.
    let check_model = |v: &cfrkit_core::games::setback::play::view::View, chosen: Move, rng: &mut Pcg64| {
        let legal: Vec<Move> = if v.phase() == Phase::Auction {
            v.legal_bids().into_iter().map(Move::Bid).collect()
        } else {
            cards::iter(v.legal_cards()).map(Move::Card).collect()
        };
        let drawn = sampled.move_with_source(v, rng).unwrap().0;
        for (model, made, argmax) in [(&tables, chosen, true), (&player, chosen, true), (&sampled, drawn, false)] {
            let p = |m: &Move| model.probability(v, m).unwrap().expect("a strategy agent gives every probability");
            let total: f64 = legal.iter().map(p).sum();
            assert!((total - 1.0).abs() < 1e-5, "{total} at {v:?}");
            assert!(if argmax { p(&made) == 1.0 } else { p(&made) > 0.0 }, "{made:?} at {v:?}");
        }
    };
    let mut rng = Pcg64::seed_from_u64(5);
    let mut sources = [0usize; 3];
    for g in 0..20 {
        let mut game = Game::new(11, g, (g % 4) as u8, false).unwrap();
        // Random bids rarely end a game: a few deals of each are enough.
        while game.winner().is_none() && game.records().len() < 6 {
            if game.deal_over() {
                game.next_deal().unwrap();
                continue;
            }
            let seat = game.to_act().unwrap();
            let v = game.view(seat);
            if v.phase() == Phase::Auction {
                let (b, src) = tables.bid_with_source(&v, &mut rng).unwrap();
                assert_eq!(player.bid_with_source(&v, &mut rng).unwrap(), (b, src));
                assert_eq!(parsed.act(&v, &mut rng).unwrap(), Move::Bid(b));
                check_model(&v, Move::Bid(b), &mut rng);
                sources[src as usize] += 1;
            } else {
                let (c, src) = tables.play_with_source(&v, &mut rng).unwrap();
                assert_eq!(player.play_with_source(&v, &mut rng).unwrap(), (c, src));
                check_model(&v, Move::Card(c), &mut rng);
                sources[src as usize] += 1;
            }
            // Random moves explore states the trained players would not reach.
            game.agent_move(&RandomAgent, &mut rng).unwrap();
        }
    }
    assert!(sources.iter().all(|&n| n > 50), "forced/table/fallback decisions: {sources:?}");
    assert_eq!(Source::Forced as usize, 0);

    // A file that is not a strategy database is refused with its name.
    let junk = dir.join("junk.db");
    std::fs::write(&junk, b"not a database").unwrap();
    let e = Database::open(&junk).err().unwrap().to_string();
    assert!(e.contains("junk.db"), "{e}");
    assert!(registry::agent("db:/nonexistent/setback.db").is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
