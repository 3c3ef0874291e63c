//! Speed and a quick strength check of `schafkopfrl-pimc` (SchafkopfRL's PIMC made faithful).
//!
//! `cargo run --release -p cfrkit-core --example schafkopf_uct -- [DEALS] [TIMED_GAMES] [OPTIONS]`:
//! microseconds per decision by phase (the world sampling shown apart), games per second of
//! the agent against `rules` on one thread, and the agent's cents per game with 95% intervals
//! against `random-coward`, `rules` and `random` over DEALS deals (default 200) of the seed's protocol.

use cfrkit_core::arena::quiet;
use cfrkit_core::games::schafkopf::agents::Agent;
use cfrkit_core::games::schafkopf::matches::{choice_stream, run_match, MatchSettings};
use cfrkit_core::games::schafkopf::pimc::uct;
use cfrkit_core::games::schafkopf::pimc::worlds::Worlds;
use cfrkit_core::games::schafkopf::registry;
use cfrkit_core::games::schafkopf::{Deal, Game, Phase, Rules, View};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;

fn main() -> cfrkit_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deals: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(200);
    let timed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let options = args.get(2).cloned().unwrap_or_else(|| "n=10,m=40,threads=1".into());
    let pimc = uct::from_options(&options)?;
    let spec = pimc.name();
    let rules = registry::parse("rules")?;

    // Per decision, by phase: every seat is the agent; single-action decisions counted apart.
    let phases = [Phase::Bidding, Phase::Contra, Phase::Retour, Phase::Tricks];
    let (mut secs, mut count, mut sample_secs, mut single) = ([0f64; 4], [0u64; 4], [0f64; 4], 0u64);
    for i in 0..timed {
        let mut game = Game::new(&Deal::for_game(0, i), Rules::SCHAFKOPFRL);
        let mut rng = choice_stream(0, i, 0);
        while let Some(p) = game.player() {
            let view = View::new(&game, p);
            let k = phases.iter().position(|&x| x == game.phase()).unwrap();
            if view.legal_mask().count_ones() == 1 {
                single += 1;
            } else {
                let start = Instant::now();
                let worlds = Worlds::new(&view)?;
                let mut r = Pcg64::seed_from_u64(i);
                for _ in 0..pimc.n() {
                    worlds.sample(&mut r)?;
                }
                sample_secs[k] += start.elapsed().as_secs_f64();
                count[k] += 1;
                let start = Instant::now();
                pimc.act(&view, &mut rng.clone())?;
                secs[k] += start.elapsed().as_secs_f64();
            }
            let a = pimc.act(&view, &mut rng)?;
            game.apply_legal(a);
        }
    }
    println!("{spec}: {timed} games with four agents, one thread ({single} single-action decisions, not searched)");
    for (k, phase) in phases.iter().enumerate() {
        if count[k] > 0 {
            println!(
                "  {:8} {:6} decisions: {:8.0} us per decision, of which sampling {} worlds {:8.0} us",
                phase.name(),
                count[k],
                1e6 * secs[k] / count[k] as f64,
                pimc.n(),
                1e6 * sample_secs[k] / count[k] as f64
            );
        }
    }
    let all: f64 = secs.iter().sum::<f64>() / count.iter().sum::<u64>() as f64;
    println!("  all      {:6} decisions: {:8.0} us per decision", count.iter().sum::<u64>(), 1e6 * all);

    let one = MatchSettings { threads: 1, ..MatchSettings::default() };
    let start = Instant::now();
    let r = run_match(&pimc, rules.as_ref(), timed, &one, &mut quiet)?;
    let s = start.elapsed().as_secs_f64();
    println!("{} vs rules, one thread: {} games in {s:.2} s = {:.1} games/s", pimc.name(), r.games, r.games as f64 / s);

    let all_threads = MatchSettings::default();
    for b in ["random-coward", "rules", "random"] {
        let opponent = registry::parse(b)?;
        let start = Instant::now();
        let r = run_match(&pimc, opponent.as_ref(), deals, &all_threads, &mut quiet)?;
        println!(
            "{} vs {b}: {} deals, {} games (seed protocol, seed 0) in {:.1} s: {:+.2} ± {:.2} cents per game",
            pimc.name(),
            r.deals,
            r.games,
            start.elapsed().as_secs_f64(),
            r.a.mean,
            r.a.ci95
        );
    }
    Ok(())
}
