//! Kuhn poker with OpenSpiel's rules, information-state strings and action ids, for 2 or more
//! players.
//!
//! `players + 1` cards (0 is lowest), ante 1, one bet of 1. Actions: 0 = Pass, 1 = Bet. Players
//! act in turn; after a bet every other player acts once more (Bet = call, Pass = fold). The
//! highest card among the bettors wins (among everyone if nobody bet). Information state: the
//! player's card followed by the betting history as `p`/`b` characters.

use crate::error::{Error, Result};
use crate::game::{Action, Game, Turn};

/// Kuhn poker for `players` players.
#[derive(Clone, Debug)]
pub struct Kuhn {
    players: usize,
}

/// Largest number of players supported.
pub const MAX_PLAYERS: usize = 10;

impl Default for Kuhn {
    fn default() -> Self {
        Kuhn { players: 2 }
    }
}

impl Kuhn {
    /// Kuhn poker for `players` players (2..=10).
    pub fn new(players: usize) -> Result<Kuhn> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(Error::invalid("kuhn.players", players, format!("an integer in 2..={MAX_PLAYERS}")));
        }
        Ok(Kuhn { players })
    }

    /// Position of the first bet in the history, if any.
    fn first_bet(h: &[u8]) -> Option<usize> {
        h.iter().position(|&a| a == 1)
    }

    fn is_over(&self, h: &[u8]) -> bool {
        match Self::first_bet(h) {
            None => h.len() == self.players,
            Some(k) => h.len() == k + self.players,
        }
    }
}

/// A Kuhn poker state: the dealt cards and the betting history.
#[derive(Clone, Debug, Default)]
pub struct KuhnState {
    cards: Vec<u8>,
    history: Vec<u8>,
}

impl Game for Kuhn {
    type State = KuhnState;

    fn spec(&self) -> String {
        if self.players == 2 {
            "kuhn".into()
        } else {
            format!("kuhn(players={})", self.players)
        }
    }
    fn num_players(&self) -> usize {
        self.players
    }
    fn constant_sum(&self) -> bool {
        true
    }
    fn initial_state(&self) -> KuhnState {
        KuhnState::default()
    }
    fn turn(&self, s: &KuhnState) -> Turn {
        if s.cards.len() < self.players {
            Turn::Chance
        } else if self.is_over(&s.history) {
            Turn::Terminal
        } else {
            Turn::Player(s.history.len() % self.players)
        }
    }
    fn chance_outcomes(&self, s: &KuhnState) -> Vec<(Action, f64)> {
        let left: Vec<u8> = (0..=self.players as u8).filter(|c| !s.cards.contains(c)).collect();
        let p = 1.0 / left.len() as f64;
        left.into_iter().map(|c| (c as Action, p)).collect()
    }
    fn legal_actions(&self, _s: &KuhnState) -> Vec<Action> {
        vec![0, 1]
    }
    fn child(&self, s: &KuhnState, a: Action) -> KuhnState {
        let mut c = s.clone();
        if s.cards.len() < self.players {
            c.cards.push(a as u8);
        } else {
            c.history.push(a as u8);
        }
        c
    }
    fn returns(&self, s: &KuhnState) -> Vec<f64> {
        let n = self.players;
        let mut paid = vec![1.0; n];
        let in_showdown: Vec<usize> = match Self::first_bet(&s.history) {
            None => (0..n).collect(),
            Some(_) => {
                let bettors: Vec<usize> =
                    (0..n).filter(|&p| s.history.iter().enumerate().any(|(i, &a)| a == 1 && i % n == p)).collect();
                for &p in &bettors {
                    paid[p] += 1.0;
                }
                bettors
            }
        };
        let winner = *in_showdown.iter().max_by_key(|&&p| s.cards[p]).unwrap();
        let pot: f64 = paid.iter().sum();
        (0..n).map(|p| if p == winner { pot - paid[p] } else { -paid[p] }).collect()
    }
    fn info_key(&self, s: &KuhnState, player: usize) -> String {
        let mut k = s.cards[player].to_string();
        k.extend(s.history.iter().map(|&a| if a == 0 { 'p' } else { 'b' }));
        k
    }
    fn action_name(&self, s: &KuhnState, a: Action) -> String {
        if s.cards.len() < self.players {
            format!("card{a}")
        } else if a == 0 {
            "Pass".into()
        } else {
            "Bet".into()
        }
    }
}
