//! Perfect Information Monte Carlo (PIMC) for Setback: sample complete deals consistent with what
//! a player has seen, solve each as if every card were visible, and take the action with the best
//! average value.
//!
//! * [`worlds`] — determinization: uniform, exact sampling of the hidden hands under hand sizes,
//!   played cards, undealt cards and shown voids, rebuilt into deals at the view's state;
//! * [`solver`] — the perfect-information solver (alpha-beta with a transposition table);
//! * [`agent`] — [`PimcAgent`], bidding, setting trump and playing by PIMC: Setback's worlds and
//!   solver plugged into the generic loop of [`crate::search`] (built from `pimc:worlds=N,...`
//!   specs by [`super::registry::pimc`]).
//!
//! Known limit of the method: in each world the solver assumes everyone knows every card, so PIMC
//! can average over plays that no single strategy could make (strategy fusion) and never plays to
//! hide or gather information.

pub mod agent;
pub mod solver;
pub mod worlds;

pub use agent::PimcAgent;
