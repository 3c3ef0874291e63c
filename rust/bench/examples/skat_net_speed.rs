//! Times the `net:DIR` agent: `skat_net_speed DIR [deals]` (default 200) plays the deals with
//! the policy in every seat on one thread and prints the median and mean time per decision,
//! and the decisions per second.
use cfrkit_core::games::skat::agents::Agent;
use cfrkit_core::games::skat::learned::NetAgent;
use cfrkit_core::games::skat::{Deal, Game, View};
use cfrkit_core::trick::matches::choice_stream;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).expect("a policy directory");
    let deals: u64 = args.get(2).map(|s| s.parse().expect("an integer")).unwrap_or(200);
    let net = NetAgent::from_options(dir).expect("a policy");
    let mut times = Vec::new();
    let start = Instant::now();
    for d in 0..deals {
        let mut g = Game::new(&Deal::for_game(1, d));
        let mut rng = choice_stream::<cfrkit_core::games::skat::agents::Skat>(1, d, 0);
        while let Some(p) = g.player() {
            let view = View::new(&g, p);
            let t = Instant::now();
            let a = net.act(&view, &mut rng).expect("an action");
            times.push(t.elapsed().as_secs_f64() * 1e6);
            g.apply(a).expect("a legal action");
        }
    }
    let total = start.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    println!(
        "{} decisions in {deals} games: median {:.1} us, mean {:.1} us per decision; {:.0} decisions/s, {:.0} games/s",
        times.len(),
        times[times.len() / 2],
        times.iter().sum::<f64>() / times.len() as f64,
        times.len() as f64 / total,
        deals as f64 / total
    );
}
