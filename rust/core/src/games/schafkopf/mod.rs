//! Schafkopf as SchafkopfRL plays it (spec `schafkopf.md`), on the shared card engine.
//!
//! * [`cards`] — the 32-card deck as Schafkopf writes it, card points, hands;
//! * [`contract`] — declarations, contracts and their trick orders;
//! * [`rules`] — the two rule sets: SchafkopfRL's (step for step) and the standard rules;
//! * [`actions`] — actions, names and the seed's 43 action ids; the phases;
//! * [`deal`] — deals, given or drawn from per-index random streams;
//! * [`game`] — the game from the deal to the payment: auction, contra/retour, tricks with the
//!   called-Ace rules, illegal actions refused with the reason;
//! * [`scoring`] — Schneider, Schwarz, Laufende, doubling and payment vectors;
//! * [`view`] — what one seat sees;
//! * [`features`] — a fixed-length numeric encoding of a view for learning agents;
//! * [`agents`] — the agent trait, `random`, `random-coward` and `rules`;
//! * [`matches`] — games between agents, matches and tournaments on [`crate::arena`];
//! * [`pimc`] — PIMC: exact worlds, the perfect-information solver, cfrkit's PIMC agent and
//!   SchafkopfRL's (UCT) as the yardstick;
//! * [`hybrid`] — the hybrid agent: a learned policy ([`learned`]) early, PIMC late;
//! * [`registry`] — agent spec strings, parsed in one place.

pub mod actions;
pub mod agents;
pub mod cards;
pub mod contract;
pub mod deal;
pub mod features;
pub mod game;
pub mod hybrid;
pub mod learned;
pub mod matches;
pub mod pimc;
pub mod registry;
pub mod rules;
pub mod scoring;
pub mod view;

pub use actions::{Action, Phase, NUM_ACTIONS};
pub use contract::{Contract, Declaration};
pub use deal::Deal;
pub use game::Game;
pub use rules::Rules;
pub use view::{OwnedView, View};
