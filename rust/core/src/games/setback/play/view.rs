//! What one player may see: its own hand, the auction, the cards played (public), the current
//! trick, trump, and the game score. The deal itself stays private to this module, so an agent
//! cannot look at other players' cards.

use super::super::abstraction::{self, Actions};
use super::super::cards::{self, Card, CardSet};
use super::super::keys::{self, Key};
use super::super::rules::{Deal, Phase, CARDS_PER_HAND};
use crate::error::{Error, Result};

/// Cards played in a deal at most.
const MAX_PLAYED: usize = 4 * CARDS_PER_HAND;

/// One player's view of a deal in a game (everything dealer-relative: player 0 = dealer,
/// team 0 = the dealer's team).
#[derive(Clone, Copy, Debug)]
pub struct View {
    deal: Deal,
    player: u8,
    score: [i32; 2],
    /// The cards played so far in play order, where the view's maker kept them
    /// ([`View::with_card_order`]): the deal itself keeps only who played what.
    card_order: [Card; MAX_PLAYED],
    cards_ordered: u8,
}

impl View {
    /// The view of dealer-relative `player` (0..4) of `deal`, with the game score `score` of
    /// the dealer's team and the other team.
    pub fn new(deal: &Deal, player: u8, score: [i32; 2]) -> View {
        View { deal: *deal, player: player % 4, score, card_order: [0; MAX_PLAYED], cards_ordered: 0 }
    }

    /// The same view knowing the order the cards were played in (public: everyone saw it), as
    /// a game gives it; refused unless `cards` are exactly the cards played, each once.
    pub fn with_card_order(mut self, cards: &[Card]) -> Result<View> {
        let set = cards.iter().filter(|&&c| (c as usize) < cards::DECK_SIZE).fold(0 as CardSet, |a, &c| a | 1 << c);
        if cards.len() > MAX_PLAYED || set != self.played() || set.count_ones() as usize != cards.len() {
            return Err(Error::invalid(
                "card order",
                cards.iter().map(|&c| cards::card_name(c)).collect::<Vec<_>>().join(" "),
                format!("the cards played so far, each once ({})", cards::set_names(self.played())),
            ));
        }
        self.card_order[..cards.len()].copy_from_slice(cards);
        self.cards_ordered = cards.len() as u8;
        Ok(self)
    }

    /// The cards played so far in play order, when the view knows it (made by a game, or no
    /// card played yet).
    pub fn card_order(&self) -> Option<&[Card]> {
        let n = self.cards_ordered as usize;
        (n == self.played().count_ones() as usize).then(|| &self.card_order[..n])
    }

    /// The view of the player to act (None when the deal is finished).
    pub fn of_actor(deal: &Deal, score: [i32; 2]) -> Option<View> {
        deal.to_act().map(|p| View::new(deal, p, score))
    }

    /// The deal behind the view, for crate modules that rebuild it from public information
    /// (PIMC's world sampler): callers read only what the viewer may see and replace the rest.
    pub(crate) fn deal(&self) -> &Deal {
        &self.deal
    }
    /// Dealer-relative index of the viewing player.
    pub fn player(&self) -> u8 {
        self.player
    }
    /// Team of the viewing player (0 = the dealer's team).
    pub fn team(&self) -> usize {
        (self.player % 2) as usize
    }
    /// Whether the viewing player is the one to act.
    pub fn to_act(&self) -> bool {
        self.deal.to_act() == Some(self.player)
    }
    /// Phase of the deal.
    pub fn phase(&self) -> Phase {
        self.deal.phase()
    }
    /// Cards the viewing player still holds.
    pub fn hand(&self) -> CardSet {
        self.deal.hands()[self.player as usize]
    }
    /// Cards the viewing player was dealt.
    pub fn dealt_hand(&self) -> CardSet {
        self.deal.dealt()[self.player as usize]
    }
    /// Bids so far in bidding order (player 1 first).
    pub fn bids(&self) -> Vec<u8> {
        self.deal.bids()
    }
    /// The high bid (0 = none) and its bidder.
    pub fn high_bid(&self) -> (u8, Option<u8>) {
        self.deal.high_bid()
    }
    /// Trump, once set.
    pub fn trump(&self) -> Option<u8> {
        self.deal.trump()
    }
    /// Cards of the current trick in play order.
    pub fn trick(&self) -> &[Card] {
        self.deal.trick()
    }
    /// Dealer-relative index of the current trick's leader (the last trick's winner once a
    /// trick is complete; None during the auction or after an all-pass).
    pub fn leader(&self) -> Option<u8> {
        match self.deal.phase() {
            Phase::Auction => None,
            _ => self.deal.high_bid().1.map(|_| self.deal.leader),
        }
    }
    /// Position in the current trick (0 = leader) of the card winning it (None if empty).
    pub fn trick_winner(&self) -> Option<usize> {
        (!self.deal.trick().is_empty()).then_some(self.deal.trick_winner as usize)
    }
    /// Number of completed tricks.
    pub fn tricks_done(&self) -> u8 {
        self.deal.tricks_done()
    }
    /// Cards played so far by dealer-relative player `p` (public: every card is shown).
    pub fn played_by(&self, p: u8) -> CardSet {
        let p = (p % 4) as usize;
        self.deal.dealt()[p] & !self.deal.hands()[p]
    }
    /// Every card played so far.
    pub fn played(&self) -> CardSet {
        (0..4).fold(0, |a, p| a | self.played_by(p))
    }
    /// Cards the viewing player has not seen: not in its hand and not played (the other hands
    /// and the 28 undealt cards).
    pub fn unseen(&self) -> CardSet {
        let deck: CardSet = (1u64 << cards::DECK_SIZE) - 1;
        deck & !self.hand() & !self.played()
    }
    /// The suits each player has shown void in (public: read from the cards played), as a bit
    /// set of suits per dealer-relative player.
    pub fn shown_voids(&self) -> [u8; 4] {
        self.deal.shown_voids()
    }
    /// The game score of the dealer's team and of the other team before this deal.
    pub fn score(&self) -> [i32; 2] {
        self.score
    }
    /// Legal bids (empty unless the viewer is to act in the auction).
    pub fn legal_bids(&self) -> Vec<u8> {
        if self.to_act() {
            self.deal.legal_bids()
        } else {
            Vec::new()
        }
    }
    /// Legal cards (empty unless the viewer is to act in the playout).
    pub fn legal_cards(&self) -> CardSet {
        if self.to_act() {
            self.deal.legal_cards()
        } else {
            0
        }
    }
    /// The number of legal moves: bids in the auction, cards afterwards (0 unless the viewer is
    /// to act).
    pub fn legal_count(&self) -> usize {
        if self.phase() == Phase::Auction {
            self.legal_bids().len()
        } else {
            self.legal_cards().count_ones() as usize
        }
    }
    /// Baseline abstract actions of the viewer (§2.3–§2.6), when it is to act. They depend only
    /// on the viewer's own cards and public play.
    pub fn abstract_actions(&self) -> Option<Actions> {
        self.to_act().then(|| abstraction::actions(&self.deal))
    }
    /// Baseline key of the viewer with its abstract actions (None when fewer than two actions
    /// or when the viewer is not to act). Built from the viewer's own cards and public play.
    pub fn key(&self, actions: &Actions) -> Option<Key> {
        if self.to_act() {
            keys::key(&self.deal, actions)
        } else {
            None
        }
    }
    /// Bootstrap (score-aware) auction key of the viewer (§2.9), when it is to act in the auction.
    pub fn bootstrap_key(&self) -> Option<Key> {
        if self.to_act() {
            keys::bootstrap_key(&self.deal, self.score)
        } else {
            None
        }
    }
}
