//! Seat protocols for matches between two agents, A (0) and B (1).

use crate::error::{Error, Result};

/// How two agents are seated at a table, deal after deal. Every protocol plays each deal once in
/// each of its seatings; the protocols of matches are symmetric: swapping A and B maps their
/// seatings onto themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Two games per deal: A in the first half of the seats and B in the rest (`[a, a, b, b]`),
    /// then swapped (`[b, b, a, a]`) — SchafkopfRL's tournament protocol.
    Halves,
    /// Every seating in which the two agents' numbers of seats differ by at most one (for four
    /// seats the six ways to give A two seats), in lexicographic order of the seat assignment:
    /// each agent sits in every seat, and next to every arrangement of the other, equally often.
    Rotation,
    /// One game per deal with A in every seat: self-play, to make data sets (B plays nothing;
    /// not a protocol of matches, so [`Protocol::parse`] does not name it).
    Alone,
}

/// The protocol names [`Protocol::parse`] accepts.
pub const PROTOCOL_NAMES: &str = "halves or rotation";

impl Protocol {
    /// The protocol named `name` (`halves` or `rotation`).
    pub fn parse(name: &str) -> Result<Protocol> {
        match name.trim().to_ascii_lowercase().as_str() {
            "halves" => Ok(Protocol::Halves),
            "rotation" => Ok(Protocol::Rotation),
            _ => Err(Error::invalid("protocol", name, PROTOCOL_NAMES)),
        }
    }

    /// The seatings for `seats` seats (1..=16): for each game on a deal, the agent (0 = A, 1 = B)
    /// of every seat.
    pub fn seatings(self, seats: usize) -> Result<Vec<Vec<u8>>> {
        if !(1..=16).contains(&seats) {
            return Err(Error::invalid("seats", seats, "1 to 16 seats"));
        }
        Ok(match self {
            Protocol::Halves => {
                let first: Vec<u8> = (0..seats).map(|s| (s >= seats.div_ceil(2)) as u8).collect();
                let second = first.iter().map(|&x| 1 - x).collect();
                vec![first, second]
            }
            Protocol::Rotation => (0..1u32 << seats)
                .filter(|m| (seats as i64 - 2 * m.count_ones() as i64).abs() <= 1)
                .map(|m| (0..seats).map(|s| (m >> (seats - 1 - s) & 1) as u8).collect())
                .collect::<Vec<Vec<u8>>>(),
            Protocol::Alone => vec![vec![0; seats]],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_and_rotations() {
        assert_eq!(Protocol::Halves.seatings(4).unwrap(), [vec![0, 0, 1, 1], vec![1, 1, 0, 0]]);
        assert_eq!(Protocol::Halves.seatings(3).unwrap(), [vec![0, 0, 1], vec![1, 1, 0]]);
        let r = Protocol::Rotation.seatings(4).unwrap();
        assert_eq!(r.len(), 6);
        for seat in 0..4 {
            assert_eq!(r.iter().filter(|s| s[seat] == 0).count(), 3);
        }
        let mut sorted = r.clone();
        sorted.sort();
        assert_eq!(sorted, r, "lexicographic");
        assert!(r.contains(&vec![0, 1, 0, 1]));
        let swapped: Vec<Vec<u8>> = r.iter().map(|s| s.iter().map(|&x| 1 - x).collect()).collect();
        assert!(swapped.iter().all(|s| r.contains(s)));
        assert_eq!(Protocol::Rotation.seatings(3).unwrap().len(), 6);
        assert!(Protocol::parse("rotation").is_ok() && Protocol::parse("swiss").is_err());
        assert!(Protocol::Halves.seatings(0).is_err());
        assert_eq!(Protocol::Alone.seatings(3).unwrap(), [vec![0, 0, 0]]);
        assert!(Protocol::parse("alone").is_err());
    }
}
