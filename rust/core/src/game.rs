//! The `Game` trait: the rules of a finite extensive-form game with chance.
//!
//! A game describes states, whose turn it is (a player, chance, or nobody at a terminal),
//! legal actions, transitions, terminal returns for every player, and for each player the
//! information-state key. Keys of Kuhn and Leduc equal OpenSpiel's `information_state_string`
//! and action ids equal OpenSpiel's, so policies convert both ways.

/// An action id. For chance nodes it identifies the outcome.
pub type Action = u32;

/// Who moves at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Chance picks an outcome with known probabilities.
    Chance,
    /// A player (0-based) chooses an action.
    Player(usize),
    /// The game is over.
    Terminal,
}

/// The rules of a finite game. Implementations must be deterministic.
pub trait Game: Send + Sync {
    /// A game state; cheap to clone.
    type State: Clone + Send + Sync;

    /// The canonical spec string, e.g. `leduc` or `blackjack(up=6-6-2,max_hits=1)`.
    fn spec(&self) -> String;
    /// Number of (non-chance) players.
    fn num_players(&self) -> usize;
    /// Whether the returns of every terminal sum to the same constant (zero-sum or constant-sum).
    fn constant_sum(&self) -> bool;
    /// The initial state.
    fn initial_state(&self) -> Self::State;
    /// Who moves at `state`.
    fn turn(&self, state: &Self::State) -> Turn;
    /// Chance outcomes and their probabilities at a chance state, in a fixed order.
    fn chance_outcomes(&self, state: &Self::State) -> Vec<(Action, f64)>;
    /// Legal actions of the player to move, in ascending id order.
    fn legal_actions(&self, state: &Self::State) -> Vec<Action>;
    /// The state after `action`.
    fn child(&self, state: &Self::State, action: Action) -> Self::State;
    /// Returns of every player at a terminal state.
    fn returns(&self, state: &Self::State) -> Vec<f64>;
    /// The information-state key of `player` at `state`.
    fn info_key(&self, state: &Self::State, player: usize) -> String;
    /// A readable name of `action` at `state`.
    fn action_name(&self, state: &Self::State, action: Action) -> String;
}
