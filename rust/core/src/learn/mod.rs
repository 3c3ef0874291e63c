//! Learned policies: networks trained on game logs to imitate the agents that played them.
//!
//! * [`mlp`] — the network: a multilayer perceptron (ReLU hidden layers) built with candle,
//!   its seeded initialisation, its safetensors files, and a plain forward pass for play;
//! * [`policy`] — a learned policy on disk: one network per decision kind and `model.json`;
//! * [`learnable`] — what a game provides ([`Learnable`]: decision kinds, replaying a logged
//!   game into samples) and what every game's policies do with it: samples from logs, training
//!   one network per kind, choosing actions with a loaded policy;
//! * [`imitate`] — imitation training: samples of (features, legal actions, action taken), a
//!   held-out split by deal, minibatch AdamW on the cross-entropy of the legal actions, early
//!   stopping on the held-out loss, the best weights saved as training goes;
//! * [`hybrid`] — the options and name of every game's hybrid agent (a policy early, PIMC late);
//! * [`play_model`] — a loaded policy as a model of the other seats' play: the probability of
//!   each of their moves, the `net:DIR` model of PIMC with inference ([`crate::search::inference`]);
//! * [`symmetry`] — relabellings of a decision that leave its play unchanged (suits that play
//!   alike swapped), for training on random images of each decision;
//! * [`trick_features`] — the features of the order of play every trick-taking game's encoder
//!   shares: cards led, cards played off the suit led, voids shown.
//!
//! Nothing here knows a game: a game implements [`Learnable`] and plays with the networks
//! (`games::skat::learned`, `games::schafkopf::learned`).

pub mod hybrid;
pub mod imitate;
pub mod learnable;
pub mod mlp;
pub mod play_model;
pub mod policy;
pub mod symmetry;
pub mod trick_features;

pub use hybrid::{Hybrid, HybridSpec};
pub use imitate::{train, Samples, TrainReport, TrainSettings};
pub use learnable::{
    imitate, net_options, samples_from_logs, ImitationReport, Learnable, NetOptions, NetPolicy, DEFAULT_PERCENTILE,
    LIKELY, MAX_BID, NET_OPTIONS,
};
pub use mlp::{DenseMlp, Mlp};
pub use play_model::PlayModel;
pub use policy::{Description, NetEntry, Policy};
