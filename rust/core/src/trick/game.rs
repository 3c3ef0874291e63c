//! The [`TrickGame`] trait: what a trick-taking game tells its agents.

use crate::error::Result;
use rand_pcg::Pcg64;

/// A trick-taking game as its agents see it: what a seat sees when it is to act, its actions
/// (bids, declarations, cards: whatever the game has), and which are legal.
pub trait TrickGame: Send + Sync + 'static {
    /// The game's name in specs, logs and commands, e.g. `skat`.
    const NAME: &'static str;
    /// What the seat to act sees (it may borrow the game).
    type View<'a>;
    /// A seat's move: a bid, a declaration, a card…
    type Action: Copy + PartialEq + std::fmt::Debug + Send + Sync;

    /// Whether the view's seat is to act.
    fn to_act(view: &Self::View<'_>) -> bool;
    /// A uniformly random legal action of the view's seat, which is to act (each game draws in
    /// its own way: its logs and figures depend on the draws).
    fn random_action(view: &Self::View<'_>, rng: &mut Pcg64) -> Result<Self::Action>;
    /// Why `action` is not legal for the view's seat (which is to act); None when it is.
    fn why_illegal(view: &Self::View<'_>, action: Self::Action) -> Option<String>;
    /// The action as a user writes it, e.g. `SA` or `grand hand`.
    fn action_name(view: &Self::View<'_>, action: Self::Action) -> String;
    /// Tricks completed when the view's seat is to play a card; None before the cards
    /// (bidding, declarations).
    fn tricks_done(view: &Self::View<'_>) -> Option<u8>;
}
