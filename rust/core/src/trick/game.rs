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

/// A trick-taking game that can be dealt and played to the end between agents: what matches,
/// tournaments, self-play and game logs ([`super::matches`]) need of a game, and all they need.
pub trait MatchGame: TrickGame {
    /// The seats at the table.
    const SEATS: usize;
    /// Domain tag of the agents' choice streams (keeps the figures of every match as they were).
    const CHOICES: u64;
    /// The categories a match tallies per seat-game (the contract or game type the seat played,
    /// defender, thrown in…), in the order of [`MatchGame::category`].
    const CATEGORIES: &'static [&'static str];
    /// What a seat's result counts, e.g. `TP per game` or `cents per game`.
    const UNIT: &'static str;
    /// The seat protocols of a match, by name; the first is the default.
    const PROTOCOLS: &'static [(&'static str, crate::arena::Protocol)];
    /// A deal being played.
    type State: Send;
    /// The rule set a deal is played under.
    type Rules: Copy + Default + PartialEq + std::fmt::Debug + Send + Sync;

    /// The rule set named `name`.
    fn parse_rules(name: &str) -> Result<Self::Rules>;
    /// The rule set's name.
    fn rules_name(rules: Self::Rules) -> &'static str;
    /// Deal `index` of `seed` under `rules`, before its first action.
    fn deal(rules: Self::Rules, seed: u64, index: u64) -> Self::State;
    /// The seat to act; None once the deal is over.
    fn player(state: &Self::State) -> Option<u8>;
    /// What seat `seat` sees.
    fn view(state: &Self::State, seat: u8) -> Self::View<'_>;
    /// Plays `action`, which is legal for the seat to act.
    fn apply(state: &mut Self::State, action: Self::Action);
    /// The action's id among the game's actions (as logs and features number them).
    fn action_id(action: Self::Action) -> u32;
    /// The ids of the view's legal actions, in increasing order.
    fn legal_ids(view: &Self::View<'_>) -> Vec<u32>;
    /// The names of the game's actions by id (a log's header).
    fn action_names() -> Vec<String>;
    /// Every seat's result of the finished deal (in [`MatchGame::UNIT`]).
    fn returns(state: &Self::State) -> Vec<i64>;
    /// The category ([`MatchGame::CATEGORIES`]) of seat `seat` in the finished deal.
    fn category(state: &Self::State, seat: u8) -> usize;
    /// The settings text of a log's header for a match under `rules` and the protocol named
    /// `protocol`.
    fn log_settings(rules: Self::Rules, protocol: &str) -> String;
    /// The `cards` of a finished deal's log record (the dealt hands…).
    fn log_cards(state: &Self::State) -> serde_json::Value;
    /// The `result` of a finished deal's log record.
    fn log_result(state: &Self::State) -> serde_json::Value;
}
