//! Where a game's decisions take their random streams ([`Streams`]), and decisions shared
//! between the games of one deal.
//!
//! A match plays every deal in several seatings, and until the programs' choices part, the
//! games of a deal pass through the same positions: the first lead of a deal is the same
//! decision in every seating that puts the same program in the leading seat. When each
//! decision's random stream is keyed by the game's history instead of by the game
//! ([`DealChoices::decide`]), a program facing the same history in two seatings takes the same
//! decision, so it is taken once per deal and remembered. For search agents that is much of the
//! work: between two PIMC programs that mostly agree, a deal costs about half its six games.
//!
//! Each decision still has a stream of its own (the history differs between the decisions of
//! one game), so every game is distributed as without sharing; but a deal's games are tied
//! together (a program's choices in one history are the same in all of them), so a deal's
//! mean carries less of the agents' randomness averaged out, and cheap agents gain nothing
//! from it: matches share decisions only when asked to.

use crate::error::Result;
use crate::streams::{splitmix, stream};
use rand_pcg::Pcg64;
use std::collections::HashMap;

/// Where a game's decisions take their random streams.
pub enum Streams<'a, V> {
    /// One stream for the whole game, each decision drawing on from where the last stopped.
    Game(&'a mut Pcg64),
    /// A stream per decision keyed by the history, decisions shared between the games of the
    /// deal: `programs[s]` is the program (its index in the match) in seat `s`.
    Shared { choices: &'a mut DealChoices<V>, programs: &'a [u8] },
}

impl<V: Clone> Streams<'_, V> {
    /// The decision of seat `seat` after `history` (the ids of the game's actions so far):
    /// `decide` with the game's stream, or as [`DealChoices::decide`] gives it.
    pub fn decide(&mut self, seat: usize, history: &[u32], decide: impl FnOnce(&mut Pcg64) -> Result<V>) -> Result<V> {
        match self {
            Streams::Game(rng) => decide(rng),
            Streams::Shared { choices, programs } => {
                let program = programs.get(seat).map_or(seat, |&p| usize::from(p));
                choices.decide(program, history, decide)
            }
        }
    }
}

/// The decisions taken so far in the games of one deal, per program, by history.
#[derive(Debug)]
pub struct DealChoices<V> {
    seed: u64,
    tag: u64,
    deal: u64,
    /// Per program (its index in the match), the decision after each history seen.
    seen: Vec<HashMap<Vec<u32>, V>>,
}

impl<V: Clone> DealChoices<V> {
    /// No decisions yet in deal `deal` of a match seeded `seed`; `tag` names the game's choice
    /// streams (see [`stream`]).
    pub fn new(seed: u64, tag: u64, deal: u64) -> DealChoices<V> {
        DealChoices { seed, tag, deal, seen: Vec::new() }
    }

    /// The decision of program `program` (its index in the match) after `history` (the ids of
    /// the actions of its game so far): `decide` with the history's own random stream
    /// ([`Self::stream`]) the first time the program meets this history in the deal, the same
    /// decision after that. The history must determine the position (the deal fixes the cards),
    /// and `decide` must be a function of the position and the stream.
    pub fn decide(
        &mut self,
        program: usize,
        history: &[u32],
        decide: impl FnOnce(&mut Pcg64) -> Result<V>,
    ) -> Result<V> {
        if self.seen.len() <= program {
            self.seen.resize_with(program + 1, HashMap::new);
        }
        if let Some(v) = self.seen[program].get(history) {
            return Ok(v.clone());
        }
        let v = decide(&mut self.stream(history))?;
        self.seen[program].insert(history.to_vec(), v.clone());
        Ok(v)
    }

    /// The random stream of the decision after `history` in this deal.
    pub fn stream(&self, history: &[u32]) -> Pcg64 {
        let key = history.iter().fold(0u64, |h, &id| splitmix(h ^ u64::from(id)));
        stream(self.seed, self.tag, self.deal, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn a_program_decides_once_per_history_with_the_histories_stream() {
        let mut choices = DealChoices::new(1, 2, 3);
        let mut calls = 0;
        let mut draw = |program: usize, history: &[u32]| {
            choices
                .decide(program, history, |rng| {
                    calls += 1;
                    Ok(rng.gen::<u64>())
                })
                .unwrap()
        };
        let first = draw(0, &[4, 5]);
        assert_eq!(draw(0, &[4, 5]), first);
        // Another program, or another history, decides anew: the other program with the same
        // stream (so two programs that agree take the same decisions), another history not.
        assert_eq!(draw(1, &[4, 5]), first);
        assert_ne!(draw(0, &[4, 6]), first);
        assert_ne!(draw(0, &[4]), first);
        assert_ne!(draw(0, &[5, 4]), first);
        assert_eq!(calls, 5);
        let other_deal = DealChoices::<u64>::new(1, 2, 4).stream(&[4, 5]).gen::<u64>();
        assert_ne!(other_deal, first);
        assert_eq!(DealChoices::<u64>::new(1, 2, 3).stream(&[4, 5]).gen::<u64>(), first);
    }

    #[test]
    fn a_failed_decision_is_not_remembered() {
        let mut choices = DealChoices::<u8>::new(0, 0, 0);
        assert!(choices.decide(0, &[], |_| Err(crate::error::Error::Interrupted)).is_err());
        assert_eq!(choices.decide(0, &[], |_| Ok(7)).unwrap(), 7);
        assert_eq!(choices.decide(0, &[], |_| Ok(8)).unwrap(), 7);
    }
}
