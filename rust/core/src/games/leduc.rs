//! Leduc poker with OpenSpiel's rules, information-state strings and action ids.
//!
//! Six cards (card `c` has rank `c / 2`: three ranks, two suits), ante 1, two betting rounds
//! with raises of 2 then 4 and at most two raises per round, a public card between the rounds.
//! A pair with the public card wins, else the higher rank; equal ranks split.
//! Actions: 0 = Fold, 1 = Call (check), 2 = Raise; chance actions are card ids.

use crate::game::{Action, Game, Turn};

const FOLD: Action = 0;
const CALL: Action = 1;
const RAISE: Action = 2;
const START_MONEY: u32 = 100;
const NUM_CARDS: u8 = 6;

/// Leduc poker.
#[derive(Clone, Debug, Default)]
pub struct Leduc;

/// A Leduc poker state.
#[derive(Clone, Debug)]
pub struct LeducState {
    private: [Option<u8>; 2],
    public: Option<u8>,
    round: usize,
    contributed: [u32; 2],
    to_act: usize,
    raises: u32,
    sequences: [Vec<Action>; 2],
    folded: Option<usize>,
}

impl LeducState {
    fn round_over(&self) -> bool {
        let seq = &self.sequences[self.round - 1];
        seq.len() >= 2 && *seq.last().unwrap() == CALL
    }
    fn dealing(&self) -> bool {
        self.private[1].is_none() || (self.round == 1 && self.round_over() && self.folded.is_none())
    }
    fn hand_rank(&self, p: usize) -> u32 {
        let own = self.private[p].unwrap() / 2;
        let board = self.public.unwrap() / 2;
        if own == board {
            100 + own as u32
        } else {
            own as u32
        }
    }
}

impl Game for Leduc {
    type State = LeducState;

    fn spec(&self) -> String {
        "leduc".into()
    }
    fn num_players(&self) -> usize {
        2
    }
    fn constant_sum(&self) -> bool {
        true
    }
    fn initial_state(&self) -> LeducState {
        LeducState {
            private: [None, None],
            public: None,
            round: 1,
            contributed: [1, 1],
            to_act: 0,
            raises: 0,
            sequences: [vec![], vec![]],
            folded: None,
        }
    }
    fn turn(&self, s: &LeducState) -> Turn {
        if s.dealing() {
            Turn::Chance
        } else if s.folded.is_some() || (s.round == 2 && s.round_over()) {
            Turn::Terminal
        } else {
            Turn::Player(s.to_act)
        }
    }
    fn chance_outcomes(&self, s: &LeducState) -> Vec<(Action, f64)> {
        let used = [s.private[0], s.private[1], s.public];
        let left: Vec<u8> = (0..NUM_CARDS).filter(|c| !used.contains(&Some(*c))).collect();
        let p = 1.0 / left.len() as f64;
        left.into_iter().map(|c| (c as Action, p)).collect()
    }
    fn legal_actions(&self, s: &LeducState) -> Vec<Action> {
        let mut v = Vec::with_capacity(3);
        if s.contributed[s.to_act] < s.contributed[1 - s.to_act] {
            v.push(FOLD);
        }
        v.push(CALL);
        if s.raises < 2 {
            v.push(RAISE);
        }
        v
    }
    fn child(&self, s: &LeducState, a: Action) -> LeducState {
        let mut c = s.clone();
        if s.dealing() {
            if c.private[0].is_none() {
                c.private[0] = Some(a as u8);
            } else if c.private[1].is_none() {
                c.private[1] = Some(a as u8);
            } else {
                c.public = Some(a as u8);
                c.round = 2;
                c.raises = 0;
                c.to_act = 0;
            }
            return c;
        }
        let p = s.to_act;
        match a {
            FOLD => c.folded = Some(p),
            CALL => c.contributed[p] = c.contributed[1 - p],
            _ => {
                let size = if s.round == 1 { 2 } else { 4 };
                c.contributed[p] = c.contributed[1 - p] + size;
                c.raises += 1;
            }
        }
        c.sequences[s.round - 1].push(a);
        c.to_act = 1 - p;
        c
    }
    fn returns(&self, s: &LeducState) -> Vec<f64> {
        let winner = match s.folded {
            Some(f) => Some(1 - f),
            None => match s.hand_rank(0).cmp(&s.hand_rank(1)) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            },
        };
        match winner {
            None => vec![0.0, 0.0],
            Some(w) => {
                let gain = s.contributed[1 - w] as f64;
                if w == 0 {
                    vec![gain, -gain]
                } else {
                    vec![-gain, gain]
                }
            }
        }
    }
    fn info_key(&self, s: &LeducState, player: usize) -> String {
        let join = |seq: &[Action]| seq.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ");
        let public = match s.public {
            Some(b) => format!("[Public: {b}]"),
            None => String::new(),
        };
        format!(
            "[Observer: {player}][Private: {}][Round {}][Player: {}][Pot: {}][Money: {} {}]{public}[Round1: {}][Round2: {}]",
            s.private[player].unwrap(),
            s.round,
            s.to_act,
            s.contributed[0] + s.contributed[1],
            START_MONEY - s.contributed[0],
            START_MONEY - s.contributed[1],
            join(&s.sequences[0]),
            join(&s.sequences[1]),
        )
    }
    fn action_name(&self, s: &LeducState, a: Action) -> String {
        if s.dealing() {
            let rank = ["J", "Q", "K"][(a / 2) as usize];
            format!("{rank}{}", ["s", "h"][(a % 2) as usize])
        } else {
            ["Fold", "Call", "Raise"][a as usize].to_string()
        }
    }
}
