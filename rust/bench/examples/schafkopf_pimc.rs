//! Time per decision of a Schafkopf agent, by kind of decision, and its games per second.
//!
//! `cargo run --release -p cfrkit-bench --example schafkopf_pimc -- [SPEC] [GAMES] [OPPONENT]`
//! (defaults `pimc:worlds=40`, 20, `rules`): the agent takes every seat of GAMES deals (seed 0)
//! and each decision with more than one legal action is timed — median, p90 and mean
//! milliseconds (and the total seconds) for declarations, contra/retour, the first card of the game (trick 1) and later
//! cards; then a match of the agent against OPPONENT on the same number of deals (seed protocol,
//! threads as the agent's spec says, the match on one thread) gives games per second.

use cfrkit_core::arena::quiet;
use cfrkit_core::games::schafkopf::{registry, Deal, Game, Phase, Rules, View};
use cfrkit_core::trick::matches::{choice_stream, run_match, MatchSettings};
use std::time::Instant;

fn main() -> cfrkit_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().map_or("pimc:worlds=40", String::as_str);
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let opponent = args.get(2).map_or("rules", String::as_str);
    let agent = registry::parse(spec)?;
    let kinds = ["declaration", "contra/retour", "first trick", "later tricks"];
    let mut ms: [Vec<f64>; 4] = Default::default();
    for i in 0..games {
        let mut game = Game::new(&Deal::for_game(0, i), Rules::SCHAFKOPFRL);
        let mut rng = choice_stream::<cfrkit_core::games::schafkopf::agents::Schafkopf>(0, i, 0);
        while let Some(p) = game.player() {
            let view = View::new(&game, p);
            let start = Instant::now();
            let a = agent.act(&view, &mut rng)?;
            let t = start.elapsed().as_secs_f64() * 1e3;
            if view.legal_mask().count_ones() > 1 {
                let k = match game.phase() {
                    Phase::Bidding => 0,
                    Phase::Contra | Phase::Retour => 1,
                    _ if game.tricks_done() == 0 => 2,
                    _ => 3,
                };
                ms[k].push(t);
            }
            game.apply(a)?;
        }
    }
    println!("{spec}: {games} deals with the agent in every seat, one decision at a time");
    for (k, name) in kinds.iter().enumerate() {
        let v = &mut ms[k];
        if v.is_empty() {
            continue;
        }
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        println!(
            "  {name:14} {:6} decisions: median {:8.3} ms, p90 {:8.3} ms, mean {:8.3} ms, total {:7.2} s",
            v.len(),
            at(0.5),
            at(0.9),
            mean,
            mean * v.len() as f64 / 1e3
        );
    }
    let b = registry::parse(opponent)?;
    let settings = MatchSettings { threads: 1, ..MatchSettings::default() };
    let start = Instant::now();
    let r = run_match(agent.as_ref(), b.as_ref(), games, &settings, None, &mut quiet)?;
    let s = start.elapsed().as_secs_f64();
    println!(
        "  vs {opponent}: {} games in {s:.2} s = {:.2} games/s; {:+.2} ± {:.2} cents per game",
        r.pair.games,
        r.pair.games as f64 / s,
        r.pair.a.mean,
        r.pair.a.ci95
    );
    Ok(())
}
