//! Times imitation training: `imitate_speed GAME LOG [hidden] [epochs]` (defaults 128, 5) reads
//! the log's samples, then trains each decision kind's network (one hidden layer pair of the
//! given size) and prints the seconds spent reading and training and the samples per second.
use cfrkit_core::games::schafkopf::learned::SchafkopfPolicies;
use cfrkit_core::games::setback::learned::SetbackPolicies;
use cfrkit_core::games::skat::learned::SkatPolicies;
use cfrkit_core::learn::{samples_from_logs, train, Learnable, TrainSettings};
use std::path::PathBuf;
use std::time::Instant;

fn run<G: Learnable>(log: PathBuf, hidden: usize, epochs: usize) {
    let t = Instant::now();
    let samples = samples_from_logs::<G>(&[log], &[]).expect("a log of the game");
    let read = t.elapsed().as_secs_f64();
    let settings = TrainSettings { hidden: vec![hidden, hidden], epochs, patience: epochs, ..TrainSettings::default() };
    let (mut trained, t) = (0, Instant::now());
    for s in samples.iter().filter(|s| s.len() > 100) {
        let (_, r) = train(s, &settings, &mut |_, _| Ok(()), &mut |_, _| Ok(())).expect("training");
        trained += r.train_samples * r.epochs;
    }
    let seconds = t.elapsed().as_secs_f64();
    println!(
        "{} decisions read in {read:.1} s; {trained} sample-epochs trained in {seconds:.1} s: {:.0} samples/s",
        samples.iter().map(|s| s.len()).sum::<usize>(),
        trained as f64 / seconds
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (game, log) = (args.get(1).expect("a game"), PathBuf::from(args.get(2).expect("a log")));
    let hidden = args.get(3).map_or(128, |s| s.parse().expect("a layer size"));
    let epochs = args.get(4).map_or(5, |s| s.parse().expect("a number of epochs"));
    match game.as_str() {
        "skat" => run::<SkatPolicies>(log, hidden, epochs),
        "schafkopf" => run::<SchafkopfPolicies>(log, hidden, epochs),
        "setback" => run::<SetbackPolicies>(log, hidden, epochs),
        other => panic!("unknown game {other}"),
    }
}
