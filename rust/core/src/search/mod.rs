//! Search for imperfect-information games by determinization, for any game that implements two
//! traits:
//!
//! * [`Determinization`] — sampling complete worlds consistent with what one player has seen;
//! * [`PerfectInfoSolver`] — solving a world as if every card were visible.
//!
//! [`HiddenSampler`] ([`hidden`]) is what card games build their determinizations on: the
//! exact, uniform placement of the unseen cards among the other hands under per-card
//! restrictions (voids, cards a player is known not to hold).
//!
//! [`Pimc`] is the Perfect Information Monte Carlo loop over them: it samples worlds from seeded
//! streams, solves them in parallel on rayon, and aggregates each option's value over the
//! worlds. Its tie rule ([`best_option`]): the first option (in the order the game lists them)
//! with the highest mean; means are compared exactly, as integer sums over the same worlds.
//!
//! [`WeightedWorlds`] ([`weighted`]) is PIMC with inference: the worlds drawn from a pool of
//! candidates in proportion to how likely the play so far is in each ([`Pimc::weighted_pool`]);
//! [`inference`] weighs them by a [`MoveModel`] of the other seats' play ([`Inference`]).

pub mod determinization;
pub mod hidden;
pub mod inference;
pub mod options;
pub mod pimc;
pub mod solver;
pub mod weighted;

pub use determinization::Determinization;
pub use hidden::{HiddenSampler, Quota};
pub use inference::{Evidence, Inference, MoveModel, DEFAULT_FLOOR, INFERENCE_OPTIONS};
pub use options::{parse_pimc_options, pimc_options_help, PIMC_KEYS};
pub use pimc::{best_option, Pimc, MAX_POOL, MAX_WORLDS, VALUES_OPTION};
pub use solver::PerfectInfoSolver;
pub use weighted::{Sampling, WeightedWorlds};
