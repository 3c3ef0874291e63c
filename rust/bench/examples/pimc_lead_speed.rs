//! Times PIMC's trump-setting leads: `pimc_lead_speed [leads]` (default 30).
//!
//! For the bidder's first lead in deals bid by the rules agent, 64 worlds on all threads: the
//! median time for the exact mean value of every legal card (`card_values`) and for the move the
//! agent makes (`play`, which searches for bounds and solves exactly only what the choice needs).
//! Checks that both pick the same card.
use cfrkit_core::games::setback::pimc::PimcAgent;
use cfrkit_core::games::setback::play::rules_agent::RulesAgent;
use cfrkit_core::games::setback::play::view::View;
use cfrkit_core::games::setback::rules::{Deal, Phase};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::time::Instant;
fn main() {
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(30);
    let mut rng = Pcg64::seed_from_u64(1);
    let mut leads = Vec::new();
    let mut k = 0;
    while leads.len() < n {
        let mut d = Deal::seeded(1_000_003 + k);
        k += 1;
        while d.phase() == Phase::Auction {
            let v = View::of_actor(&d, [0, 0]).unwrap();
            d.bid(RulesAgent.bid(&v, &mut rng).unwrap()).unwrap();
        }
        if d.phase() == Phase::Establish {
            leads.push(View::of_actor(&d, [0, 0]).unwrap());
        }
    }
    let agent = PimcAgent::new(64, 0, 0).unwrap();
    let (mut a, mut b) = (vec![], vec![]);
    for v in &leads {
        let t = Instant::now();
        let vals = agent.card_values(v, &mut Pcg64::seed_from_u64(5)).unwrap();
        a.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let c = agent.play(v, &mut Pcg64::seed_from_u64(5)).unwrap();
        b.push(t.elapsed().as_secs_f64() * 1e3);
        let best = vals.iter().map(|x| x.1).fold(f64::MIN, f64::max);
        assert_eq!(vals.iter().find(|x| x.1 == best).unwrap().0, c);
    }
    a.sort_by(|x, y| x.partial_cmp(y).unwrap());
    b.sort_by(|x, y| x.partial_cmp(y).unwrap());
    println!("exact values: median {:.1} ms; chosen with bounds: median {:.1} ms", a[n / 2], b[n / 2]);
}
