//! Times Setback training on a fresh table: `setback_speed [deals] [algorithm] [threads] [seed]`
//! (defaults 1500, cs-cfr, 1, 0). Prints deals per second, the root value, the number of
//! infosets and a hash of every key and accumulator, which depend only on the deals and the
//! algorithm with one thread (a check that speed work changes no number).
use cfrkit_core::games::setback::keys;
use cfrkit_core::games::setback::train::{Algo, Trainer};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let deals: u64 = arg(1, "1500").parse().unwrap();
    let algo = Algo::parse(&arg(2, "cs-cfr")).unwrap();
    let threads: usize = arg(3, "1").parse().unwrap();
    let seed: u64 = arg(4, "0").parse().unwrap();
    let mut t = Trainer::new(algo, seed, threads).unwrap();
    let start = Instant::now();
    t.run(deals, Duration::from_secs(86_400), &AtomicBool::new(false));
    let s = start.elapsed().as_secs_f64();
    // FNV-1a over the keys in order and each key's accumulators.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| hash = (hash ^ x).wrapping_mul(0x0100_0000_01b3);
    for (key, slot) in t.table().entries() {
        eat(key);
        for i in 0..2 * keys::key_num_actions(key) as u32 {
            eat(t.table().load(slot + i).to_bits() as u64);
        }
    }
    let st = t.stats();
    println!(
        "{deals} deals in {s:.2} s: {:.1} deals/s; root value {:.12}; {} infosets; table hash {hash:016x}",
        deals as f64 / s,
        st.root_value,
        st.infosets
    );
}
