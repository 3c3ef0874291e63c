//! A game to 11 (spec §1.6) with the dealer rotating every deal, all-pass deals included
//! (§1.2). Seats are absolute: West 0, North 1, East 2, South 3; team 0 = West+East, team 1 =
//! North+South. Deal `k` of a game is dealt from a deck that depends only on the match seed,
//! the deck stream and `k`, so two games can be played on the same decks; a logged game is
//! replayed on its logged deals ([`Game::from_deals`]).

use super::super::cards::{Card, CardSet};
use super::super::rules::{Deal, GameScore, CARDS_PER_HAND};
use super::actions::{action_id, legal_ids};
pub use super::agent::Move;
use super::agent::{Agent, Setback};
use super::view::View;
use crate::arena::log::Decision;
use crate::error::{Error, Result};
use crate::streams::stream;
use crate::trick::{act_checked, act_valued_checked};
use rand_pcg::Pcg64;

/// A game that has not ended after this many deals is refused (the agents never bid).
pub const MAX_DEALS: usize = 1000;

const DECKS: u64 = 0x6465_636b; // "deck"

/// Deal `k` of deck stream `deck_stream` under `seed`: a shuffled deck dealt the original's way.
pub fn deal_from_stream(seed: u64, deck_stream: u64, k: u64) -> Deal {
    Deal::random(&mut stream(seed, DECKS, deck_stream, k))
}

/// One finished deal of a game, in absolute seats and teams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealRecord {
    /// Seat of the dealer.
    pub dealer: u8,
    /// The hand dealt to each seat.
    pub hands: [CardSet; 4],
    /// Bids in bidding order (the dealer's left first).
    pub bids: Vec<u8>,
    /// Deal score of each absolute team after the setback rule.
    pub score: [i32; 2],
}

/// Where a game's deals come from.
#[derive(Clone, Debug)]
enum Decks {
    /// Deal `k` from the deck stream `deck_stream` under `seed`.
    Stream { seed: u64, deck_stream: u64 },
    /// The deals given, in order (dealer-relative hands).
    Given(Vec<Deal>),
}

impl Decks {
    /// Deal `k`.
    fn deal(&self, k: usize) -> Result<Deal> {
        match self {
            Decks::Stream { seed, deck_stream } => Ok(deal_from_stream(*seed, *deck_stream, k as u64)),
            Decks::Given(deals) => deals
                .get(k)
                .cloned()
                .ok_or_else(|| Error::invalid("deals", deals.len(), "deals enough for the game to reach its winner")),
        }
    }
}

/// A game in progress: the score, the dealer, the current deal.
#[derive(Clone, Debug)]
pub struct Game {
    decks: Decks,
    score: GameScore,
    dealer: u8,
    deal: Deal,
    /// The cards of the current deal in play order (views carry them: PIMC's inference replays
    /// the deal).
    card_order: Vec<Card>,
    deals_done: usize,
    play_out: bool,
    records: Vec<DealRecord>,
}

impl Game {
    /// A new game with the first dealer at `first_dealer` (0..4), decks from `(seed, deck_stream)`.
    /// With `play_out` every card is played; without it a deal stops as soon as its score can no
    /// longer change (§2.8), which gives the same scores faster.
    pub fn new(seed: u64, deck_stream: u64, first_dealer: u8, play_out: bool) -> Result<Game> {
        Game::with_decks(Decks::Stream { seed, deck_stream }, first_dealer, play_out)
    }

    /// A game on given deals (a logged game replayed): deal `k` deals `hands[k]` (by absolute
    /// seat) with the dealer at `first_dealer + k` (mod 4); deals stop when their score is
    /// decided. Refused where a deal is not four hands of six distinct cards, or none is given.
    pub fn from_deals(first_dealer: u8, hands: &[[CardSet; 4]]) -> Result<Game> {
        if hands.is_empty() {
            return Err(Error::invalid("deals", 0, "at least one deal"));
        }
        let deals = hands
            .iter()
            .enumerate()
            .map(|(k, h)| {
                let dealer = (first_dealer as usize + k) % 4;
                Deal::from_hands(std::array::from_fn(|p| h[(dealer + p) % 4]))
            })
            .collect::<Result<Vec<Deal>>>()?;
        Game::with_decks(Decks::Given(deals), first_dealer, false)
    }

    fn with_decks(decks: Decks, first_dealer: u8, play_out: bool) -> Result<Game> {
        if first_dealer > 3 {
            return Err(Error::invalid(
                "first dealer",
                first_dealer,
                "a seat 0 (West), 1 (North), 2 (East) or 3 (South)",
            ));
        }
        Ok(Game {
            deal: decks.deal(0)?,
            decks,
            score: GameScore::default(),
            dealer: first_dealer,
            card_order: Vec::with_capacity(4 * CARDS_PER_HAND),
            deals_done: 0,
            play_out,
            records: Vec::new(),
        })
    }

    /// Scores of the absolute teams (0 = West+East, 1 = North+South).
    pub fn scores(&self) -> [i32; 2] {
        self.score.scores
    }
    /// The winning absolute team, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.score.winner()
    }
    /// Seat of the current dealer.
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The current deal (dealer-relative).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }
    /// Finished deals, in order.
    pub fn records(&self) -> &[DealRecord] {
        &self.records
    }
    /// Seat of dealer-relative player `p`.
    pub fn seat_of(&self, p: u8) -> u8 {
        (self.dealer + p) % 4
    }
    /// Scores of the absolute teams from scores relative to the current dealer's team.
    fn absolute(&self, rel: [i32; 2]) -> [i32; 2] {
        let t = (self.dealer % 2) as usize;
        let mut s = [0; 2];
        s[t] = rel[0];
        s[1 - t] = rel[1];
        s
    }
    /// Points each absolute team took in the current deal before the setback rule, once they
    /// are decided.
    pub fn deal_points(&self) -> Option<[i32; 2]> {
        self.deal.raw_points().map(|rel| self.absolute(rel))
    }
    /// The game score relative to the current dealer's team.
    pub fn relative_score(&self) -> [i32; 2] {
        let t = (self.dealer % 2) as usize;
        [self.score.scores[t], self.score.scores[1 - t]]
    }
    /// Whether the current deal is over (every card played, or decided when not playing out).
    pub fn deal_over(&self) -> bool {
        self.deal.is_finished() || (!self.play_out && self.deal.is_exhausted())
    }
    /// Seat of the player to act (None when the deal is over or the game has ended).
    pub fn to_act(&self) -> Option<u8> {
        if self.winner().is_some() || self.deal_over() {
            return None;
        }
        self.deal.to_act().map(|p| self.seat_of(p))
    }
    /// The view of the player at `seat`, with the order the cards were played in.
    pub fn view(&self, seat: u8) -> View {
        View::new(&self.deal, (seat % 4 + 4 - self.dealer) % 4, self.relative_score())
            .with_card_order(&self.card_order)
            .expect("a game keeps the order of every card played")
    }

    /// Makes a bid for the player to act.
    pub fn bid(&mut self, b: u8) -> Result<()> {
        self.check_open()?;
        self.deal.bid(b)
    }
    /// Plays a card for the player to act.
    pub fn play_card(&mut self, c: Card) -> Result<()> {
        self.check_open()?;
        self.deal.play_card(c)?;
        self.card_order.push(c);
        Ok(())
    }

    fn check_open(&self) -> Result<()> {
        if self.winner().is_some() {
            Err(Error::invalid("move", "a move after the game ended", "no move: the game is over"))
        } else if self.deal_over() {
            Err(Error::invalid("move", "a move after the deal ended", "finish the deal first (next_deal)"))
        } else {
            Ok(())
        }
    }

    /// Scores the finished deal, records it and, unless the game is won, deals the next one
    /// with the dealer moved one seat to the left. Returns the deal's record.
    pub fn next_deal(&mut self) -> Result<DealRecord> {
        if !self.deal_over() {
            return Err(Error::invalid("next_deal", "a deal still in progress", "a finished deal"));
        }
        let rel = self.deal.score().expect("a finished deal has a score");
        self.score.add_deal(self.dealer, rel)?;
        let score = self.absolute(rel);
        let dealt = self.deal.dealt();
        let mut hands = [0; 4];
        for (p, &h) in dealt.iter().enumerate() {
            hands[self.seat_of(p as u8) as usize] = h;
        }
        let rec = DealRecord { dealer: self.dealer, hands, bids: self.deal.bids(), score };
        self.records.push(rec.clone());
        self.deals_done += 1;
        if self.winner().is_none() {
            if self.deals_done >= MAX_DEALS {
                return Err(Error::invalid(
                    "game",
                    format!("no winner after {MAX_DEALS} deals (scores {:?})", self.score.scores),
                    "agents that bid, so that a game ends",
                ));
            }
            self.deal = self.decks.deal(self.deals_done)?;
            self.card_order.clear();
            self.dealer = (self.dealer + 1) % 4;
        }
        Ok(rec)
    }

    /// Asks `agent` for the move of the player to act and makes it. Returns the seat and the
    /// move: a bid, or a card.
    pub fn agent_move(&mut self, agent: &dyn Agent<Setback>, rng: &mut Pcg64) -> Result<(u8, Move)> {
        self.check_open()?;
        let seat = self.to_act().expect("an open deal has a player to act");
        let m = act_checked(agent, &self.view(seat), rng)?;
        self.play_move(m)?;
        Ok((seat, m))
    }

    /// Plays the game to its end with `agents[t]` playing for absolute team `t`.
    pub fn play(&mut self, agents: [&dyn Agent<Setback>; 2], rng: &mut Pcg64) -> Result<usize> {
        self.play_recorded(agents, rng, None)
    }

    /// [`Game::play`], adding every decision to `decisions` when given (for a game log): the
    /// seat, its legal action ids, the action's id and the agent's values of the legal moves
    /// where it gives them ([`Agent::act_valued`]).
    pub fn play_recorded(
        &mut self,
        agents: [&dyn Agent<Setback>; 2],
        rng: &mut Pcg64,
        mut decisions: Option<&mut Vec<Decision>>,
    ) -> Result<usize> {
        loop {
            if let Some(w) = self.winner() {
                return Ok(w);
            }
            if self.deal_over() {
                self.next_deal()?;
                continue;
            }
            let seat = self.to_act().expect("an open deal has a player to act");
            let agent = agents[(seat % 2) as usize];
            let Some(out) = decisions.as_deref_mut() else {
                self.agent_move(agent, rng)?;
                continue;
            };
            let view = self.view(seat);
            let (m, values) = act_valued_checked(agent, &view, rng, true)?;
            let values = values.map(|v| v.into_iter().map(|(x, value)| (action_id(x), value)).collect());
            out.push(Decision::new(seat, legal_ids(&view), action_id(m), values));
            self.play_move(m)?;
        }
    }

    /// Plays `m` for the player to act and, when it ends a deal, scores the deal and deals the
    /// next one (as a match does): one step of a learning environment. Returns whether the game
    /// is over ([`Game::over`]: a game without a winner after the most deals a game may have
    /// ends drawn here, where a match refuses it). An illegal move is refused and changes
    /// nothing.
    pub fn step(&mut self, m: Move) -> Result<bool> {
        self.play_move(m)?;
        while self.deal_over() && !self.over() {
            match self.next_deal() {
                Err(_) if self.deals_done >= MAX_DEALS => break,
                r => r.map(|_| ())?,
            }
        }
        Ok(self.over())
    }

    /// Whether the game is over: won, or without a winner after the most deals a game may
    /// have (a draw).
    pub fn over(&self) -> bool {
        self.winner().is_some() || self.deals_done >= MAX_DEALS
    }

    /// Each seat's result once the game is over: 1 for the winning team's seats, -1 for the
    /// others; zeros before, and for a draw.
    pub fn returns(&self) -> [i32; 4] {
        match self.winner() {
            Some(w) => std::array::from_fn(|s| if s % 2 == w { 1 } else { -1 }),
            None => [0; 4],
        }
    }

    /// Makes a bid or plays a card for the player to act.
    pub fn play_move(&mut self, m: Move) -> Result<()> {
        match m {
            Move::Bid(b) => self.bid(b),
            Move::Card(c) => self.play_card(c),
        }
    }
}
