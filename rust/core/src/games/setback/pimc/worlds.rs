//! Determinization: complete deals consistent with what one player has seen, drawn uniformly.
//!
//! The hidden cards are the viewer's unseen cards: the other players' remaining hands and the 28
//! cards never dealt. A *world* gives every other player exactly as many of them as it still holds
//! and none of a suit it has shown void in; the rest stay undealt. Cards of one suit (indeed of all
//! suits closed to the same players) are interchangeable under these constraints: the generic
//! [`HiddenSampler`] counts the worlds exactly over these classes and draws every consistent world
//! with the same probability, never rejecting a draw.
//!
//! Voids: a follower who plays neither the suit led nor trump is void in the suit led (on a trump
//! lead, any non-trump shows a trump void); trumping in reveals nothing. The deal records every
//! void shown ([`View::shown_voids`]); [`Knowledge::with_voids`] lets a caller pass other voids.

use super::super::cards::{self, CardSet, SUIT_MASK};
use super::super::play::view::View;
use super::super::rules::{Deal, CARDS_PER_HAND};
use crate::error::{Error, Result};
use crate::search::HiddenSampler;
use rand::Rng;

/// What the viewer knows about where the hidden cards are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// The viewing player (dealer-relative).
    pub player: u8,
    /// The viewer's own remaining hand.
    pub hand: CardSet,
    /// Cards the viewer has not seen: the other hands and the undealt cards.
    pub unseen: CardSet,
    /// How many cards each player still holds.
    pub hand_sizes: [u8; 4],
    /// Suits each player has shown void in (bit `s` for suit `s`).
    pub voids: [u8; 4],
}

impl Knowledge {
    /// What `view` shows: own hand, unseen cards, hand sizes and the voids shown.
    pub fn from_view(view: &View) -> Knowledge {
        Knowledge::with_voids(view, view.shown_voids())
    }

    /// What `view` shows, with the voids given by a caller that tracked the whole history.
    pub fn with_voids(view: &View, voids: [u8; 4]) -> Knowledge {
        let hand_sizes = std::array::from_fn(|p| (CARDS_PER_HAND as u32 - view.played_by(p as u8).count_ones()) as u8);
        Knowledge { player: view.player(), hand: view.hand(), unseen: view.unseen(), hand_sizes, voids }
    }

    /// The other players, in order.
    fn others(&self) -> [u8; 3] {
        let mut o = [0u8; 3];
        for (i, p) in (0..4u8).filter(|&p| p != self.player % 4).enumerate() {
            o[i] = p;
        }
        o
    }
}

/// The most cards another player can still need (a Setback hand is 6).
const MAX_NEED: usize = 6;

/// Draws the hidden hands uniformly among the worlds consistent with a [`Knowledge`]: the
/// generic [`HiddenSampler`] with the other players as receivers and the undealt cards staying
/// out.
///
/// Suits closed to the same other players form one class of interchangeable cards (one class
/// when nobody has shown a void), in order of their lowest suit; the classes (empty ones
/// included) fix the order of the random draws.
#[derive(Clone, Debug)]
pub struct Sampler {
    knowledge: Knowledge,
    others: [u8; 3],
    hidden: HiddenSampler,
}

impl Sampler {
    /// Counts the consistent worlds; an error when there are none (an impossible knowledge).
    pub fn new(knowledge: &Knowledge) -> Result<Sampler> {
        let k = *knowledge;
        if k.player > 3 || k.hand & k.unseen != 0 || k.unseen >> cards::DECK_SIZE != 0 {
            return Err(Error::invalid(
                "knowledge",
                format!("{k:?}"),
                "a player 0..4 and disjoint hand and unseen cards",
            ));
        }
        let others = k.others();
        let need = others.map(|p| k.hand_sizes[p as usize] as usize);
        if need.iter().any(|&n| n > MAX_NEED) {
            return Err(Error::invalid("hand sizes", format!("{:?}", k.hand_sizes), "at most 6 cards a player"));
        }
        // Each suit's unseen cards go to the others not void in it.
        let mut classes: Vec<(CardSet, u8)> = Vec::with_capacity(4);
        for (su, mask) in SUIT_MASK.iter().enumerate() {
            let open = (0..3).filter(|&i| k.voids[others[i] as usize] & (1 << su) == 0).fold(0u8, |a, i| a | 1 << i);
            match classes.iter_mut().find(|(_, m)| *m == open) {
                Some((cards, _)) => *cards |= k.unseen & mask,
                None => classes.push((k.unseen & mask, open)),
            }
        }
        let hidden = HiddenSampler::from_classes(&classes, &need)
            .map_err(|_| Error::invalid("knowledge", format!("{k:?}"), "at least one consistent deal"))?;
        Ok(Sampler { knowledge: k, others, hidden })
    }

    /// The number of consistent worlds.
    pub fn count(&self) -> u128 {
        self.hidden.count()
    }

    /// The knowledge the sampler draws from.
    pub fn knowledge(&self) -> &Knowledge {
        &self.knowledge
    }

    /// The current hands of the four players in a uniformly drawn consistent world (the viewer's
    /// own hand included).
    pub fn sample_hands<R: Rng>(&self, rng: &mut R) -> [CardSet; 4] {
        let mut hands = [0u64; 4];
        hands[self.knowledge.player as usize] = self.knowledge.hand;
        for (i, h) in self.hidden.sample(rng).into_iter().enumerate() {
            hands[self.others[i] as usize] = h;
        }
        hands
    }
}

/// The deal of `view` with the players' current hands replaced by `hands` (the viewer's own hand
/// must be its real one): the public state (auction, trump, tricks, points taken) is the view's,
/// the hidden facts fixed by the dealt cards (High, Low and Jack dealt, game points dealt) are
/// recomputed. The early-end flag is cleared unless the deal is over: a world may already be
/// decided, which the next completed trick detects without changing the score.
pub fn rebuild(view: &View, hands: [CardSet; 4]) -> Result<Deal> {
    if hands[view.player() as usize] != view.hand() {
        return Err(Error::invalid("world", cards::set_names(hands[view.player() as usize]), "the viewer's own hand"));
    }
    let dealt: [CardSet; 4] = std::array::from_fn(|p| view.played_by(p as u8) | hands[p]);
    let fresh = Deal::from_hands(dealt)?;
    let mut w = *view.deal();
    w.dealt = dealt;
    w.hands = hands;
    w.game_pts_dealt = fresh.game_pts_dealt;
    if let (Some(t), (_, Some(bidder))) = (view.trump(), view.high_bid()) {
        // Replaying the trump-setting lead on a fresh copy computes the facts fixed with trump.
        let mut e = fresh;
        for b in view.bids() {
            e.apply_bid(b);
        }
        e.apply_card(cards::lowest(dealt[bidder as usize] & SUIT_MASK[t as usize]));
        w.hand_low = e.hand_low;
        w.high_team = e.high_team;
        w.low_dealt = e.low_dealt;
        w.jack_dealt = e.jack_dealt;
    }
    w.exhausted = w.is_finished();
    Ok(w)
}

/// Draws whole worlds for one view: a [`Sampler`] and the rebuild of the deal.
#[derive(Clone, Debug)]
pub struct Worlds<'a> {
    view: &'a View,
    sampler: Sampler,
}

impl<'a> Worlds<'a> {
    /// Worlds consistent with what `view` shows ([`Knowledge::from_view`]).
    pub fn new(view: &'a View) -> Result<Worlds<'a>> {
        Worlds::with_knowledge(view, &Knowledge::from_view(view))
    }

    /// Worlds consistent with `knowledge`, which must describe `view` (e.g. with fuller voids).
    pub fn with_knowledge(view: &'a View, knowledge: &Knowledge) -> Result<Worlds<'a>> {
        Ok(Worlds { view, sampler: Sampler::new(knowledge)? })
    }

    /// The sampler.
    pub fn sampler(&self) -> &Sampler {
        &self.sampler
    }

    /// A uniformly drawn world as a deal at the view's state (an error only when the knowledge
    /// does not describe the view).
    pub fn sample<R: Rng>(&self, rng: &mut R) -> Result<Deal> {
        rebuild(self.view, self.sampler.sample_hands(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::setback::cards::{bit, suit, Card};
    use crate::games::setback::rules::Phase;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// A move of a recorded deal.
    #[derive(Clone, Copy, Debug)]
    enum Move {
        Bid(u8),
        Card(Card),
    }

    /// Plays random legal moves from `deal`, calling `visit(deal, history, true voids)` before each
    /// move. Bids are random too, except that an all-pass is avoided by the dealer bidding Two.
    fn random_play(deal: Deal, rng: &mut Pcg64, mut visit: impl FnMut(&Deal, &[Move], [u8; 4])) {
        let mut d = deal;
        let mut history = Vec::new();
        let mut voids = [0u8; 4];
        while !d.is_finished() {
            visit(&d, &history, voids);
            if d.phase() == Phase::Auction {
                let legal = d.legal_bids();
                let mut b = legal[rng.gen_range(0..legal.len())];
                if d.bids().len() == 3 && d.high_bid().0 == 0 && b == 0 {
                    b = 2;
                }
                d.bid(b).unwrap();
                history.push(Move::Bid(b));
            } else {
                let legal: Vec<Card> = cards::iter(d.legal_cards()).collect();
                let c = legal[rng.gen_range(0..legal.len())];
                let p = d.actor() as usize;
                if let Some(&led) = d.trick().first() {
                    let trump = d.trump().unwrap();
                    if suit(c) != suit(led) && suit(c) != trump {
                        voids[p] |= 1 << suit(led);
                    }
                }
                d.play_card(c).unwrap();
                history.push(Move::Card(c));
            }
        }
    }

    /// Replays `history` on a deal dealt `dealt`; None if a move is illegal.
    fn replay(dealt: [CardSet; 4], history: &[Move]) -> Option<Deal> {
        let mut d = Deal::from_hands(dealt).ok()?;
        for m in history {
            match *m {
                Move::Bid(b) => d.bid(b).ok()?,
                Move::Card(c) => d.play_card(c).ok()?,
            }
        }
        Some(d)
    }

    /// Sampled worlds never contradict what the player saw: own hand, hand sizes, played and
    /// undealt cards, voids; replaying the real history on a world's hands is legal and reaches
    /// the world itself.
    #[test]
    fn worlds_are_consistent_with_random_play() {
        let mut rng = Pcg64::seed_from_u64(11);
        let mut checked = 0;
        for k in 0..150 {
            random_play(Deal::seeded(k), &mut rng.clone(), |d, history, true_voids| {
                let view = View::of_actor(d, [0, 0]).unwrap();
                let me = view.player() as usize;
                assert_eq!(view.shown_voids(), true_voids, "the view shows every void shown");
                let worlds = Worlds::new(&view).unwrap();
                for _ in 0..4 {
                    let w = worlds.sample(&mut rng).unwrap();
                    let hands = w.hands();
                    assert_eq!(hands[me], view.hand());
                    let mut all = 0u64;
                    for p in 0..4 {
                        assert_eq!(all & hands[p], 0, "hands are disjoint");
                        all |= hands[p];
                        assert_eq!(hands[p] & view.played(), 0);
                        assert_eq!(hands[p].count_ones(), d.hands()[p].count_ones(), "hand size");
                        assert_eq!(w.dealt()[p] & !hands[p], view.played_by(p as u8));
                        for (s, mask) in SUIT_MASK.iter().enumerate() {
                            if true_voids[p] & (1 << s) != 0 {
                                assert_eq!(hands[p] & mask, 0, "void in suit {s}");
                            }
                        }
                    }
                    let mut replayed = replay(w.dealt(), history).expect("the history is legal in the world");
                    replayed.exhausted = w.exhausted;
                    assert_eq!(replayed, w);
                    assert_eq!(w.legal_cards(), d.legal_cards());
                    checked += 1;
                }
            });
            rng = Pcg64::seed_from_u64(rng.gen());
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The worlds depend only on what the viewer sees: a view of a sampled world (same public
    /// state, other hidden hands) samples the same worlds from the same seed.
    #[test]
    fn worlds_ignore_hidden_cards() {
        let mut rng = Pcg64::seed_from_u64(5);
        for k in 0..40 {
            random_play(Deal::seeded(100 + k), &mut rng.clone(), |d, _, _| {
                let view = View::of_actor(d, [0, 0]).unwrap();
                let other = Worlds::new(&view).unwrap().sample(&mut rng).unwrap();
                let other_view = View::new(&other, view.player(), [0, 0]);
                let (a, b) = (Worlds::new(&view).unwrap(), Worlds::new(&other_view).unwrap());
                assert_eq!(a.sampler().count(), b.sampler().count());
                let seed = rng.gen();
                let wa = a.sample(&mut Pcg64::seed_from_u64(seed)).unwrap();
                let wb = b.sample(&mut Pcg64::seed_from_u64(seed)).unwrap();
                assert_eq!(wa, wb);
            });
        }
    }

    /// Exact uniformity on a small pool: the count equals brute-force enumeration and every world
    /// is drawn about equally often (chi-square).
    #[test]
    fn sampling_is_uniform() {
        // Eight unseen cards: three clubs, two diamonds, two hearts, one spade.
        let unseen = ["2C", "5C", "KC", "3D", "TD", "4H", "AH", "7S"]
            .iter()
            .fold(0u64, |a, n| a | bit(cards::parse_card(n).unwrap()));
        let knowledge = Knowledge {
            player: 0,
            hand: bit(cards::parse_card("AS").unwrap()),
            unseen,
            hand_sizes: [1, 2, 1, 2],
            voids: [0, 0b0001, 0b0110, 0],
        };
        let mut worlds: Vec<[CardSet; 4]> = Vec::new();
        let list: Vec<Card> = cards::iter(unseen).collect();
        for code in 0..4usize.pow(list.len() as u32) {
            let mut hands = [0u64; 4];
            let mut x = code;
            for &c in &list {
                hands[x % 4] |= bit(c); // hand 0 = undealt
                x /= 4;
            }
            let ok = (1..4).all(|p| {
                hands[p].count_ones() == knowledge.hand_sizes[p] as u32
                    && (0..4).all(|s| knowledge.voids[p] & (1 << s) == 0 || hands[p] & SUIT_MASK[s] == 0)
            });
            if ok {
                hands[0] = knowledge.hand;
                worlds.push(hands);
            }
        }
        let sampler = Sampler::new(&knowledge).unwrap();
        assert_eq!(sampler.count(), worlds.len() as u128);
        let mut freq = vec![0u32; worlds.len()];
        let mut rng = Pcg64::seed_from_u64(3);
        let draws = 200 * worlds.len() as u32;
        for _ in 0..draws {
            let h = sampler.sample_hands(&mut rng);
            freq[worlds.iter().position(|w| *w == h).expect("a consistent world")] += 1;
        }
        let expected = draws as f64 / worlds.len() as f64;
        let chi2: f64 = freq.iter().map(|&f| (f as f64 - expected).powi(2) / expected).sum();
        let df = (worlds.len() - 1) as f64;
        assert!(chi2 < df + 6.0 * (2.0 * df).sqrt(), "chi2 {chi2} with {df} degrees of freedom");
    }

    #[test]
    fn impossible_knowledge_is_an_error() {
        let knowledge =
            Knowledge { player: 0, hand: 0, unseen: SUIT_MASK[0], hand_sizes: [0, 2, 0, 0], voids: [0, 1, 0, 0] };
        assert!(Sampler::new(&knowledge).is_err());
        let knowledge = Knowledge { player: 0, hand: 1, unseen: 1, hand_sizes: [1, 0, 0, 0], voids: [0; 4] };
        assert!(Sampler::new(&knowledge).is_err());
    }
}
