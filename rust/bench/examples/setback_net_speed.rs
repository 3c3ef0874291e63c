//! Times the Setback `net:DIR` agent: `setback_net_speed DIR [games]` (default 50) plays games
//! to 11 with the policy in every seat on one thread and prints the median and mean time per
//! decision, and the decisions per second.
use cfrkit_core::games::setback::learned::NetAgent;
use cfrkit_core::games::setback::play::game::Game;
use cfrkit_core::streams::stream;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).expect("a policy directory");
    let games: u64 = args.get(2).map(|s| s.parse().expect("an integer")).unwrap_or(50);
    let net = NetAgent::from_options(dir).expect("a policy");
    let mut times = Vec::new();
    let start = Instant::now();
    for k in 0..games {
        let mut g = Game::new(1, k, (k % 4) as u8, false).expect("a game");
        let mut rng = stream(1, 0, k, 0);
        while g.winner().is_none() {
            if g.deal_over() {
                g.next_deal().expect("the next deal");
                continue;
            }
            let t = Instant::now();
            g.agent_move(&net, &mut rng).expect("a legal move");
            times.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let total = start.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    println!(
        "{} decisions in {games} games: median {:.1} us, mean {:.1} us per decision; {:.0} decisions/s, {:.1} games/s",
        times.len(),
        times[times.len() / 2],
        times.iter().sum::<f64>() / times.len() as f64,
        times.len() as f64 / total,
        games as f64 / total
    );
}
