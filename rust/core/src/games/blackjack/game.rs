//! Blackjack++ as a generic [`Game`]: slow to compile (it clones a state per deal and node) but
//! written straight from the rules, so the direct builder can be checked against it.
//!
//! Chance first deals P0's down card, then P1's (the dealer's down card affects nothing and is
//! not dealt). Decision actions: [`STAND`], [`HIT`]; a Hit is followed by a chance draw whose
//! action id is the card. Information-state key: `"{own down card}|{path}"`, the path being
//! the public actions in the original's dump naming (`s`, `h1`..`h10`) without separators;
//! e.g. `"7|h3s"` is P0 holding a 7 after it hit a 3 and P1 stood.

use super::rules::{card_prob, Table, CARDS, HIT, STAND};
use super::Blackjack;
use crate::game::{Action, Game, Turn};

/// A Blackjack++ state: the down cards dealt so far, the table, whether a Hit awaits its card,
/// and the public path.
#[derive(Clone, Debug)]
pub struct BlackjackState {
    down: [u8; 2],
    table: Table,
    drawing: bool,
    path: String,
}

impl Game for Blackjack {
    type State = BlackjackState;

    fn spec(&self) -> String {
        self.spec_string()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn constant_sum(&self) -> bool {
        false
    }
    fn initial_state(&self) -> BlackjackState {
        BlackjackState { down: [0, 0], table: Table::new(self.up[0], self.up[1]), drawing: false, path: String::new() }
    }
    fn turn(&self, s: &BlackjackState) -> Turn {
        if s.down[1] == 0 || s.drawing {
            Turn::Chance
        } else if s.table.is_terminal() {
            Turn::Terminal
        } else {
            Turn::Player(s.table.to_act as usize)
        }
    }
    fn chance_outcomes(&self, _s: &BlackjackState) -> Vec<(Action, f64)> {
        CARDS.map(|c| (Action::from(c), card_prob(c))).collect()
    }
    fn legal_actions(&self, _s: &BlackjackState) -> Vec<Action> {
        vec![STAND, HIT]
    }
    fn child(&self, s: &BlackjackState, a: Action) -> BlackjackState {
        let mut c = s.clone();
        if s.down[0] == 0 {
            c.down[0] = a as u8;
        } else if s.down[1] == 0 {
            c.down[1] = a as u8;
        } else if s.drawing {
            c.drawing = false;
            c.table = s.table.hit(a as u8, self.max_hits);
            c.path.push('h');
            c.path.push_str(&a.to_string());
        } else if a == HIT {
            c.drawing = true;
        } else {
            c.table = s.table.stand();
            c.path.push('s');
        }
        c
    }
    fn returns(&self, s: &BlackjackState) -> Vec<f64> {
        s.table.payoffs(s.down[0], s.down[1]).to_vec()
    }
    fn info_key(&self, s: &BlackjackState, player: usize) -> String {
        super::info_key(s.down[player], &s.path)
    }
    fn action_name(&self, s: &BlackjackState, a: Action) -> String {
        if s.down[0] == 0 {
            format!("P0={a}")
        } else if s.down[1] == 0 {
            format!("P1={a}")
        } else if s.drawing {
            a.to_string()
        } else if a == HIT {
            "Hit".into()
        } else {
            "Stand".into()
        }
    }
}
