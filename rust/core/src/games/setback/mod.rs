//! Setback (Auction Pitch): rules, abstraction and training. See specs/setback.md.
