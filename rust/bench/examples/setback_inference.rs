//! How sharp PIMC's inference weights are in Setback: `setback_inference MODEL [games] [temper]
//! [pool] [player]` (defaults 20, 1, 64, `pimc:worlds=16,threads=1,bidding=rules`; MODEL a
//! policy directory or a model spec such as `rules`).
//!
//! Plays `games` games to 11 of `player` self-play. At every card decision with more than one
//! legal card, draws `pool` candidate worlds as PIMC does, weights each by the model's
//! probability of the other players' moves raised to `temper` (as
//! `pimc:…,inference=MODEL,pool=N,temper=X` does), and prints by trick and side (the
//! bidding team or the defenders) the mean Kish effective size of the pool (how many equal
//! worlds its weights are worth), the share of candidates less likely than the true deal, and
//! the Brier score of where the unseen trumps are (which other player holds each, or nobody),
//! as the weighted pool and the plain one predict it, and as 16 worlds drawn from the weighted
//! pool and 16 plain ones (PIMC's worlds with and without inference) do.
use cfrkit_core::games::setback::learned::log_likelihood;
use cfrkit_core::games::setback::pimc::worlds::Worlds;
use cfrkit_core::games::setback::play::game::Game;
use cfrkit_core::games::setback::registry::{agent, move_model};
use cfrkit_core::games::setback::rules::{Deal, Phase};
use cfrkit_core::search::{Evidence, WeightedWorlds, DEFAULT_FLOOR};
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: setback_inference MODEL [games] [temper] [pool] [player]");
        std::process::exit(2);
    };
    let arg = |i: usize, d: f64| args.get(i).map(|s| s.parse::<f64>().expect("a number")).unwrap_or(d);
    let (games, temper, pool) = (arg(2, 20.0) as u64, arg(3, 1.0), arg(4, 64.0) as usize);
    let spec = if std::path::Path::new(dir).is_dir() { format!("net:{dir}") } else { dir.clone() };
    let model = Evidence::new(move_model(&spec).expect("a Setback model"), spec, DEFAULT_FLOOR).expect("a floor");
    let player = agent(args.get(5).map_or("pimc:worlds=16,threads=1,bidding=rules", String::as_str)).expect("an agent");
    let mut rng = Pcg64::seed_from_u64(5);
    // Per trick and side (defenders, bidding team): decisions, summed effective size, summed
    // rank, summed Brier scores weighted and plain.
    let mut sums = [[[0f64; 7]; 2]; 6];
    for k in 0..games {
        let mut game = Game::new(17, k, (k % 4) as u8, false).expect("a game");
        while game.winner().is_none() {
            if game.deal_over() {
                game.next_deal().expect("the next deal");
                continue;
            }
            let seat = game.to_act().expect("a player to act");
            let view = game.view(seat);
            if view.phase() == Phase::Playout && view.legal_cards().count_ones() > 1 {
                let worlds = Worlds::new(&view).expect("worlds");
                let weight = |w: &Deal| temper * log_likelihood(&model, w, &view).expect("a likelihood");
                let candidates: Vec<Deal> = (0..pool).map(|_| worlds.sample(&mut rng).expect("a world")).collect();
                let weights: Vec<f64> = candidates.iter().map(weight).collect();
                let truth = weight(game.deal());
                let below = weights.iter().filter(|&&w| w < truth).count() as f64 / pool as f64;
                let pooled = WeightedWorlds::new(candidates.clone(), &weights).expect("a pool");
                let size = pooled.effective_size();
                let p = pooled.probabilities();
                let uniform = vec![1.0 / pool as f64; pool];
                let true_hands = game.deal().hands();
                let trump = view.trump().expect("trump in the playout");
                // Where each unseen trump is (a player's hand, or undealt) by the pool's shares.
                let brier = |shares: &[f64]| {
                    let mut score = 0.0;
                    for card in 0..52u8 {
                        if view.unseen() & (1 << card) == 0 || card % 4 != trump {
                            continue;
                        }
                        let place = |hands: [u64; 4]| (0..4).find(|&q| hands[q] & (1 << card) != 0).unwrap_or(4);
                        let mut predicted = [0.0; 5];
                        for (w, share) in candidates.iter().zip(shares) {
                            predicted[place(w.hands())] += share;
                        }
                        let truth = place(true_hands);
                        score += (0..5).map(|q| (predicted[q] - f64::from(u8::from(q == truth))).powi(2)).sum::<f64>();
                    }
                    score
                };
                // PIMC's 16 worlds: 16 draws from the weighted pool, or the first 16 candidates.
                let mut drawn = vec![0.0; pool];
                for _ in 0..16 {
                    drawn[pooled.draw_index(&mut rng)] += 1.0 / 16.0;
                }
                let first: Vec<f64> = (0..pool).map(|i| if i < 16 { 1.0 / 16.0 } else { 0.0 }).collect();
                let (weighted, plain) = (brier(&p), brier(&uniform));
                let (weighted16, plain16) = (brier(&drawn), brier(&first));
                let bidder = view.high_bid().1.expect("a bidder after the auction");
                let s = &mut sums[view.tricks_done() as usize][usize::from(bidder % 2 == view.player() % 2)];
                s[0] += 1.0;
                s[1] += size;
                s[2] += below;
                s[3] += weighted;
                s[4] += plain;
                s[5] += weighted16;
                s[6] += plain16;
            }
            game.agent_move(player.as_ref(), &mut rng).expect("a legal move");
        }
    }
    println!(
        "pool {pool}, temper {temper}, {games} games: effective pool size / share of candidates below the true deal / \
         Brier score of the unseen trumps' places: the whole pool weighted, plain; 16 worlds drawn by weight, 16 plain"
    );
    for (t, by_side) in sums.iter().enumerate().filter(|(_, s)| s[0][0] + s[1][0] > 0.0) {
        let show = |s: &[f64; 7]| {
            let n = s[0].max(1.0);
            let m: Vec<String> = s[3..].iter().map(|x| format!("{:6.2}", x / n)).collect();
            format!("{:4} decisions {:6.1} {:5.2} {}", s[0], s[1] / n, s[2] / n, m.join(" "))
        };
        println!("trick {}: defenders {} | bidding team {}", t + 1, show(&by_side[0]), show(&by_side[1]));
    }
}
