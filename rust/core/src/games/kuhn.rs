//! Kuhn poker with OpenSpiel's rules, information-state strings and action ids.
//!
//! Three cards (0 = J, 1 = Q, 2 = K), ante 1, one bet of 1. Actions: 0 = Pass, 1 = Bet.
//! Information state: the player's card followed by the betting history as `p`/`b` characters.

use crate::game::{Action, Game, Turn};

/// Kuhn poker.
#[derive(Clone, Debug, Default)]
pub struct Kuhn;

/// A Kuhn poker state: the dealt cards and the betting history.
#[derive(Clone, Debug, Default)]
pub struct KuhnState {
    cards: Vec<u8>,
    history: Vec<u8>,
}

impl Kuhn {
    fn outcome(h: &[u8]) -> Option<(f64, bool)> {
        // (amount the winner gains, whether it goes to showdown); for folds the bettor wins.
        match h {
            [0, 0] => Some((1.0, true)),
            [1, 0] => Some((1.0, false)),
            [1, 1] | [0, 1, 1] => Some((2.0, true)),
            [0, 1, 0] => Some((1.0, false)),
            _ => None,
        }
    }
}

impl Game for Kuhn {
    type State = KuhnState;

    fn spec(&self) -> String {
        "kuhn".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn constant_sum(&self) -> bool {
        true
    }
    fn initial_state(&self) -> KuhnState {
        KuhnState::default()
    }
    fn turn(&self, s: &KuhnState) -> Turn {
        if s.cards.len() < 2 {
            Turn::Chance
        } else if Self::outcome(&s.history).is_some() {
            Turn::Terminal
        } else {
            Turn::Player(s.history.len() % 2)
        }
    }
    fn chance_outcomes(&self, s: &KuhnState) -> Vec<(Action, f64)> {
        let left: Vec<u8> = (0..3).filter(|c| !s.cards.contains(c)).collect();
        let p = 1.0 / left.len() as f64;
        left.into_iter().map(|c| (c as Action, p)).collect()
    }
    fn legal_actions(&self, _s: &KuhnState) -> Vec<Action> {
        vec![0, 1]
    }
    fn child(&self, s: &KuhnState, a: Action) -> KuhnState {
        let mut c = s.clone();
        if s.cards.len() < 2 {
            c.cards.push(a as u8);
        } else {
            c.history.push(a as u8);
        }
        c
    }
    fn returns(&self, s: &KuhnState) -> Vec<f64> {
        let (amount, showdown) = Self::outcome(&s.history).expect("returns of a non-terminal Kuhn state");
        let winner = if showdown {
            usize::from(s.cards[1] > s.cards[0])
        } else {
            // The last player to act folded; the other one wins.
            1 - (s.history.len() - 1) % 2
        };
        if winner == 0 {
            vec![amount, -amount]
        } else {
            vec![-amount, amount]
        }
    }
    fn info_key(&self, s: &KuhnState, player: usize) -> String {
        let mut k = s.cards[player].to_string();
        k.extend(s.history.iter().map(|&a| if a == 0 { 'p' } else { 'b' }));
        k
    }
    fn action_name(&self, s: &KuhnState, a: Action) -> String {
        if s.cards.len() < 2 {
            ["J", "Q", "K"][a as usize].to_string()
        } else if a == 0 {
            "Pass".into()
        } else {
            "Bet".into()
        }
    }
}
