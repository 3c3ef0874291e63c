//! Learned policies: networks trained on game logs to imitate the agents that played them.
//!
//! * [`mlp`] — the network: a multilayer perceptron (ReLU hidden layers) built with candle,
//!   its seeded initialisation, its safetensors files, and a plain forward pass for play;
//! * [`policy`] — a learned policy on disk: one network per decision kind and `model.json`;
//! * [`learnable`] — what a game provides ([`Learnable`]: decision kinds, replaying a logged
//!   game into samples) and what every game's policies do with it: samples from logs, training
//!   one network per kind, choosing actions with a loaded policy;
//! * [`imitate`] — imitation training: samples of (features, legal actions, action taken), a
//!   held-out split by game, minibatch AdamW on the cross-entropy of the legal actions, early
//!   stopping on the held-out loss, the best weights saved as training goes.
//!
//! Nothing here knows a game: a game implements [`Learnable`] and plays with the networks
//! (`games::skat::learned`, `games::schafkopf::learned`).

pub mod imitate;
pub mod learnable;
pub mod mlp;
pub mod policy;

pub use imitate::{train, Samples, TrainReport, TrainSettings};
pub use learnable::{imitate, net_options, samples_from_logs, ImitationReport, Learnable, NetPolicy, NET_OPTIONS};
pub use mlp::{DenseMlp, Mlp};
pub use policy::{Description, NetEntry, Policy};
