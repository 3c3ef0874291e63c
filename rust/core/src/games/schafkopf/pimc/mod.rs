//! Perfect Information Monte Carlo for Schafkopf: worlds consistent with what a seat has seen,
//! solved with every card visible.
//!
//! * [`worlds`] — determinization: exact, uniform sampling of the hidden hands under every hard
//!   constraint the play has shown (counts, voids per contract, the called-Ace rules, bids,
//!   contra and retour);
//! * [`solver`] — the perfect-information solver (alpha-beta over the payment with a
//!   transposition table);
//! * [`agent`] — cfrkit's PIMC agent (`pimc:worlds=N`): worlds and solver in the generic loop
//!   of [`crate::search`];
//! * [`uct`] — SchafkopfRL's PIMC made faithful (`schafkopfrl-pimc:n=N,m=M`): UCT trees with
//!   random rollouts in exact worlds, the yardstick.

pub mod agent;
pub mod solver;
pub mod uct;
pub mod worlds;
