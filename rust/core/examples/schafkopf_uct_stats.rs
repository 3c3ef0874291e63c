//! Behaviour of `schafkopfrl-pimc` against another agent in the seed's seating: the contracts
//! it declares, the doubling it gives, and payments. `cargo run --release -p cfrkit-core
//! --example schafkopf_uct_stats -- [DEALS] [OPPONENT] [SPEC]`.

use cfrkit_core::games::schafkopf::agents::{self, uct, Agent};
use cfrkit_core::games::schafkopf::matches::play_deal;
use cfrkit_core::games::schafkopf::{Action, Rules};
use std::collections::BTreeMap;

fn main() -> cfrkit_core::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deals: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(100);
    let other = agents::parse(args.get(1).map_or("random-coward", String::as_str))?;
    let pimc = uct::from_spec(args.get(2).map_or("schafkopfrl-pimc", String::as_str))?;
    let mut stats: BTreeMap<String, (u64, i64)> = BTreeMap::new();
    let mut total = 0i64;
    for d in 0..deals {
        for half in 0..2u64 {
            let a_seats = if half == 0 { [0u8, 1] } else { [2, 3] };
            let seat: [&dyn Agent; 4] =
                std::array::from_fn(
                    |p| {
                        if a_seats.contains(&(p as u8)) {
                            &pimc as &dyn Agent
                        } else {
                            other.as_ref()
                        }
                    },
                );
            let key = if half == 0 { 0b1100 } else { 0b0011 };
            let g = play_deal(0, d, key, Rules::SCHAFKOPFRL, seat)?;
            let r = g.returns();
            let a: i64 = a_seats.iter().map(|&p| r[p as usize] as i64).sum();
            total += a;
            let who = |p: u8| if a_seats.contains(&p) { "pimc" } else { "other" };
            let contract = g.contract().map_or("none".into(), |c| format!("{c:?}"));
            let k = format!("{} declares {}", who(g.declarer().unwrap_or(0)), contract);
            let e = stats.entry(k).or_default();
            e.0 += 1;
            e.1 += a;
            for (p, act) in g.history() {
                if act == Action::Double(true) {
                    let e = stats.entry(format!("{} doubles", who(p))).or_default();
                    e.0 += 1;
                    e.1 += a;
                }
            }
        }
    }
    let games = 2 * deals;
    println!(
        "{} vs {}: {games} games, {:+.2} cents per seat and game",
        pimc.name(),
        other.name(),
        total as f64 / (2 * games) as f64
    );
    for (k, (n, sum)) in stats {
        println!(
            "  {k:40} {n:6} games ({:5.1}%), pimc's two seats {:+8.1} cents per such game",
            100.0 * n as f64 / games as f64,
            sum as f64 / n as f64
        );
    }
    Ok(())
}
