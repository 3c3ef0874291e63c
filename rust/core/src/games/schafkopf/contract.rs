//! Declarations, the contract an auction ends in, and each contract's trick order (spec §3, §5).
//!
//! | contract | trumps, high to low | plain suits, high to low |
//! |---|---|---|
//! | Sauspiel (any called suit), Herz-Solo | EO GO HO SO EU GU HU SU HA H10 HK H9 H8 H7 | A 10 K 9 8 7 |
//! | Solo of suit X | the Obers, the Unters, XA X10 XK X9 X8 X7 | A 10 K 9 8 7 |
//! | Wenz, and the play-out after all passed | EU GU HU SU | A 10 K O 9 8 7 |

use super::cards::{card, suit_letter, ACE, EICHEL, EIGHT, GRAS, HERZ, KING, NINE, OBER, SCHELLEN, SEVEN, TEN, UNTER};
use crate::cards::{Card, Deck, Follow, SuitTable, TrickOrder, TRUMP_SUIT};
use crate::error::{Error, Result};

/// What a seat declares in the auction. Ids 0–8 are the seed's action ids (spec §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declaration {
    /// No game ("weiter").
    Pass,
    /// A Sauspiel calling the Ace of the suit (Schellen, Gras or Eichel).
    Sauspiel(u8),
    /// A Wenz.
    Wenz,
    /// A Solo of the suit.
    Solo(u8),
}

/// The kind of a game, in the auction's precedence: Solo beats Wenz beats Sauspiel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Sauspiel (lowest).
    Sauspiel = 0,
    /// Wenz.
    Wenz = 1,
    /// Solo (highest).
    Solo = 2,
}

/// The suits a Sauspiel may call, in id order.
pub const CALLABLE: [u8; 3] = [SCHELLEN, GRAS, EICHEL];

/// The declaration names [`Declaration::parse`] accepts.
pub const DECLARATION_NAMES: &str = "pass, sauspiel:S, sauspiel:G, sauspiel:E, wenz, solo:S, solo:H, solo:G or solo:E";

impl Declaration {
    /// Every declaration, in id order.
    pub const ALL: [Declaration; 9] = [
        Declaration::Pass,
        Declaration::Sauspiel(SCHELLEN),
        Declaration::Sauspiel(GRAS),
        Declaration::Sauspiel(EICHEL),
        Declaration::Wenz,
        Declaration::Solo(SCHELLEN),
        Declaration::Solo(HERZ),
        Declaration::Solo(GRAS),
        Declaration::Solo(EICHEL),
    ];

    /// The id (0 pass; 1–3 Sauspiel S/G/E; 4 Wenz; 5–8 Solo S/H/G/E).
    pub const fn id(self) -> u8 {
        match self {
            Declaration::Pass => 0,
            Declaration::Sauspiel(s) => match s {
                SCHELLEN => 1,
                GRAS => 2,
                _ => 3,
            },
            Declaration::Wenz => 4,
            Declaration::Solo(s) => 5 + (s & 3),
        }
    }

    /// The declaration of an id, if it is one.
    pub fn from_id(id: u8) -> Option<Declaration> {
        Declaration::ALL.get(id as usize).copied()
    }

    /// The kind of game declared; None for a pass.
    pub const fn kind(self) -> Option<Kind> {
        match self {
            Declaration::Pass => None,
            Declaration::Sauspiel(_) => Some(Kind::Sauspiel),
            Declaration::Wenz => Some(Kind::Wenz),
            Declaration::Solo(_) => Some(Kind::Solo),
        }
    }

    /// The contract played if this declaration wins the auction (None for a pass).
    pub const fn contract(self) -> Option<Contract> {
        match self {
            Declaration::Pass => None,
            Declaration::Sauspiel(s) => Some(Contract::Sauspiel(s)),
            Declaration::Wenz => Some(Contract::Wenz),
            Declaration::Solo(s) => Some(Contract::Solo(s)),
        }
    }

    /// The name: `pass`, `sauspiel:G`, `wenz`, `solo:H`.
    pub fn name(self) -> String {
        let suit = |s: u8| if s < 4 { suit_letter(s).to_string() } else { s.to_string() };
        match self {
            Declaration::Pass => "pass".into(),
            Declaration::Sauspiel(s) => format!("sauspiel:{}", suit(s)),
            Declaration::Wenz => "wenz".into(),
            Declaration::Solo(s) => format!("solo:{}", suit(s)),
        }
    }

    /// Parses a declaration name (case-insensitive), e.g. `sauspiel:G`, `Wenz`, `solo:e`.
    pub fn parse(text: &str) -> Result<Declaration> {
        let t = text.trim().to_ascii_lowercase();
        Declaration::ALL
            .into_iter()
            .find(|d| d.name().to_ascii_lowercase() == t)
            .ok_or_else(|| Error::invalid("declaration", text, format!("one of {DECLARATION_NAMES}")))
    }
}

/// The game played after the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contract {
    /// A Sauspiel: the declarer and the holder of the called Ace of this suit against the others.
    Sauspiel(u8),
    /// A Wenz: the declarer alone, the four Unters trump.
    Wenz,
    /// A Solo of this suit: the declarer alone.
    Solo(u8),
    /// Everyone passed and the rules play the hand out anyway (SchafkopfRL): Wenz order, no
    /// called Ace, no payment.
    Passed,
}

/// The trumps of the Solo of suit `x` (and of a Sauspiel for `x` = Herz), high to low.
const fn solo_trumps(x: u8) -> [Card; 14] {
    [
        card(OBER, EICHEL),
        card(OBER, GRAS),
        card(OBER, HERZ),
        card(OBER, SCHELLEN),
        card(UNTER, EICHEL),
        card(UNTER, GRAS),
        card(UNTER, HERZ),
        card(UNTER, SCHELLEN),
        card(ACE, x),
        card(TEN, x),
        card(KING, x),
        card(NINE, x),
        card(EIGHT, x),
        card(SEVEN, x),
    ]
}

/// The trumps of each Solo (by suit), high to low; Herz's are the Sauspiel's.
pub const SOLO_TRUMPS: [[Card; 14]; 4] = [solo_trumps(0), solo_trumps(1), solo_trumps(2), solo_trumps(3)];
/// Wenz's trumps, high to low.
pub const WENZ_TRUMPS: [Card; 4] = [card(UNTER, EICHEL), card(UNTER, GRAS), card(UNTER, HERZ), card(UNTER, SCHELLEN)];
/// Plain ranks, high to low, when Obers and Unters are trumps.
const SUIT_PLAIN: [u8; 6] = [ACE, TEN, KING, NINE, EIGHT, SEVEN];
/// Plain ranks, high to low, in a Wenz (the Ober between King and Nine).
const WENZ_PLAIN: [u8; 7] = [ACE, TEN, KING, OBER, NINE, EIGHT, SEVEN];

const fn solo_suits(x: u8) -> SuitTable {
    SuitTable::new(Deck::PIQUET_32, &SOLO_TRUMPS[x as usize], x, &SUIT_PLAIN)
}

/// The suits (effective suit and rank of every card) of each Solo, by suit; Herz's are the
/// Sauspiel's.
pub static SOLO_SUITS: [SuitTable; 4] = [solo_suits(0), solo_suits(1), solo_suits(2), solo_suits(3)];
/// The suits of a Wenz and of the play-out after all passed.
pub static WENZ_SUITS: SuitTable = SuitTable::new(Deck::PIQUET_32, &WENZ_TRUMPS, TRUMP_SUIT, &WENZ_PLAIN);

/// A contract's trick order: its suit table, its trump suit, and following suit.
pub type Order = TrickOrder<&'static SuitTable>;

impl Contract {
    /// The kind of game (None for the play-out after all passed).
    pub const fn kind(self) -> Option<Kind> {
        match self {
            Contract::Sauspiel(_) => Some(Kind::Sauspiel),
            Contract::Wenz => Some(Kind::Wenz),
            Contract::Solo(_) => Some(Kind::Solo),
            Contract::Passed => None,
        }
    }

    /// How the contract orders cards in tricks.
    #[inline]
    pub fn order(self) -> Order {
        match self {
            Contract::Sauspiel(_) => TrickOrder::new(&SOLO_SUITS[HERZ as usize], HERZ, Follow::Suit),
            Contract::Solo(s) => TrickOrder::new(&SOLO_SUITS[s as usize & 3], s & 3, Follow::Suit),
            Contract::Wenz | Contract::Passed => TrickOrder::new(&WENZ_SUITS, TRUMP_SUIT, Follow::Suit),
        }
    }

    /// The trumps, high to low (what Laufende count along).
    pub fn trumps_high_to_low(self) -> &'static [Card] {
        match self {
            Contract::Sauspiel(_) => &SOLO_TRUMPS[HERZ as usize],
            Contract::Solo(s) => &SOLO_TRUMPS[s as usize & 3],
            Contract::Wenz | Contract::Passed => &WENZ_TRUMPS,
        }
    }

    /// The suit whose Ace a Sauspiel calls.
    pub const fn called_suit(self) -> Option<u8> {
        match self {
            Contract::Sauspiel(s) => Some(s),
            _ => None,
        }
    }

    /// The called Ace of a Sauspiel.
    pub const fn called_ace(self) -> Option<Card> {
        match self {
            Contract::Sauspiel(s) => Some(card(ACE, s)),
            _ => None,
        }
    }

    /// Whether the declarer plays alone (Solo, Wenz).
    pub const fn alone(self) -> bool {
        matches!(self, Contract::Solo(_) | Contract::Wenz)
    }

    /// The declaration that names this contract (None for the play-out after all passed).
    pub const fn declaration(self) -> Option<Declaration> {
        match self {
            Contract::Sauspiel(s) => Some(Declaration::Sauspiel(s)),
            Contract::Wenz => Some(Declaration::Wenz),
            Contract::Solo(s) => Some(Declaration::Solo(s)),
            Contract::Passed => None,
        }
    }

    /// The name: `sauspiel:G`, `wenz`, `solo:E`, or `passed`.
    pub fn name(self) -> String {
        match self.declaration() {
            Some(d) => d.name(),
            None => "passed".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::{name, NOTATION};
    use super::*;

    fn trick_winner(c: Contract, trick: &str) -> String {
        let cards: Vec<Card> = trick.split_whitespace().map(|n| NOTATION.parse(n).unwrap()).collect();
        name(cards[c.order().winner(&cards).unwrap()])
    }

    #[test]
    fn ids_and_names_round_trip() {
        for (i, d) in Declaration::ALL.into_iter().enumerate() {
            assert_eq!(d.id() as usize, i);
            assert_eq!(Declaration::from_id(i as u8), Some(d));
            assert_eq!(Declaration::parse(&d.name()).unwrap(), d);
            assert_eq!(Declaration::parse(&d.name().to_uppercase()).unwrap(), d);
        }
        assert!(Declaration::parse("sauspiel:H").unwrap_err().to_string().contains("sauspiel:S"));
        assert_eq!(Declaration::from_id(9), None);
        assert!(Kind::Solo > Kind::Wenz && Kind::Wenz > Kind::Sauspiel);
    }

    #[test]
    fn orders_per_contract() {
        // Spec §12's trick winners.
        assert_eq!(trick_winner(Contract::Sauspiel(GRAS), "GA G7 H7 G10"), "H7");
        assert_eq!(trick_winner(Contract::Wenz, "EO EK SU EA"), "SU");
        assert_eq!(trick_winner(Contract::Solo(GRAS), "HA H10 G7 S7"), "G7");
        assert_eq!(Contract::Sauspiel(SCHELLEN).order(), Contract::Solo(HERZ).order());
        for c in [Contract::Sauspiel(EICHEL), Contract::Solo(SCHELLEN), Contract::Solo(EICHEL)] {
            assert_eq!(c.order().trumps().count_ones(), 14);
            let listed = c.trumps_high_to_low().iter().fold(0u64, |m, &t| m | 1 << t);
            assert_eq!(listed, c.order().trumps());
            for w in c.trumps_high_to_low().windows(2) {
                assert!(c.order().beats(w[0], w[1]), "{} over {}", name(w[0]), name(w[1]));
            }
        }
        assert_eq!(Contract::Wenz.order().trumps().count_ones(), 4);
        assert_eq!(Contract::Passed.order(), Contract::Wenz.order());
    }
}
