//! Perfect Information Monte Carlo for Skat: worlds consistent with what a seat has seen,
//! solved with every card visible.
//!
//! * [`worlds`] — determinization: exact, uniform sampling of the hidden hands and the skat
//!   under every hard constraint the play has shown (counts, voids per contract, ouvert hands);
//! * [`solver`] — the perfect-information solver: null-window alpha-beta over the declarer's
//!   card points and tricks (suit, grand) or the tricks he takes (null), with a transposition
//!   table, equivalent cards merged and move ordering;
//! * [`precardplay`] — search-based decisions before the cards (`bidding=search`): bid limit,
//!   Hand or pickup, discard and contract by solving sampled worlds per candidate;
//! * [`agent`] — cfrkit's PIMC agent (`pimc:worlds=N`): worlds and solver in the generic loop of
//!   [`crate::search`].

pub mod agent;
pub mod precardplay;
pub mod solver;
pub mod worlds;
