//! How sharp PIMC's inference weights are in Skat: `skat_inference POLICY_DIR [games] [temper]
//! [pool]` (defaults 20, 1, 160).
//!
//! Plays `games` games of `pimc:worlds=16` self-play (its `rules` bidding). At every card
//! decision from the second trick on with more than one legal card, draws `pool` candidate
//! worlds as PIMC does, weights each by the policy's probability of the other seats' moves
//! raised to `temper` (as `pimc:…,inference=net:POLICY_DIR,pool=N,temper=X` does), and prints
//! by trick and role the mean Kish effective size of the pool (how many equal worlds its
//! weights are worth) and the share of candidates less likely than the true deal.
use cfrkit_core::games::skat::learned::{log_likelihood, move_model};
use cfrkit_core::games::skat::pimc::worlds::Worlds;
use cfrkit_core::games::skat::registry::parse;
use cfrkit_core::games::skat::{Deal, Game, Phase, View};
use cfrkit_core::search::{Evidence, WeightedWorlds, DEFAULT_FLOOR};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: skat_inference POLICY_DIR [games] [temper] [pool]");
        std::process::exit(2);
    };
    let arg = |i: usize, d: f64| args.get(i).map(|s| s.parse::<f64>().expect("a number")).unwrap_or(d);
    let (games, temper, pool) = (arg(2, 20.0) as usize, arg(3, 1.0), arg(4, 160.0) as usize);
    let spec = format!("net:{dir}");
    let model = Evidence::new(move_model(&spec).expect("a Skat policy"), spec, DEFAULT_FLOOR).expect("a floor");
    let player = parse("pimc:worlds=16").expect("an agent");
    let mut rng = Pcg64::seed_from_u64(5);
    // Per trick and role (defender, declarer): decisions, summed effective size, summed rank.
    let mut sums = [[[0f64; 3]; 2]; 10];
    for _ in 0..games {
        let mut g = Game::new(&Deal::random(&mut rng));
        while let Some(seat) = g.player() {
            let view = View::new(&g, seat);
            if g.phase() == Phase::Tricks && g.legal_cards().count_ones() > 1 && g.tricks_done() >= 1 {
                let worlds = Worlds::new(&view).expect("worlds");
                let weight = |w: &Game| temper * log_likelihood(&model, w, seat).expect("a likelihood");
                let candidates: Vec<Game> = (0..pool).map(|_| worlds.sample(&mut rng).expect("a world")).collect();
                let weights: Vec<f64> = candidates.iter().map(weight).collect();
                let truth = weight(&g);
                let below = weights.iter().filter(|&&w| w < truth).count() as f64 / pool as f64;
                let size = WeightedWorlds::new(candidates, &weights).expect("a pool").effective_size();
                let s = &mut sums[g.tricks_done() as usize][usize::from(g.declarer() == Some(seat))];
                s[0] += 1.0;
                s[1] += size;
                s[2] += below;
            }
            g.apply(player.act(&view, &mut rng).expect("a move")).expect("a legal move");
        }
    }
    println!(
        "pool {pool}, temper {temper}, {games} games: effective pool size / share of candidates below the true deal"
    );
    for (t, by_role) in sums.iter().enumerate().filter(|(_, s)| s[0][0] + s[1][0] > 0.0) {
        let show =
            |s: &[f64; 3]| format!("{:4} decisions {:6.1} {:5.2}", s[0], s[1] / s[0].max(1.0), s[2] / s[0].max(1.0));
        println!("trick {:2}: defender {} | declarer {}", t + 1, show(&by_role[0]), show(&by_role[1]));
    }
}
