//! The two rule sets (spec §11): SchafkopfRL's, step for step, and the standard rules.

use crate::error::{Error, Result};

/// Where the rule sets differ. Everything else (auction, doubling, tariffs) is common.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// After four passes the hand is still doubled and played out in Wenz order, paying 0
    /// (SchafkopfRL); otherwise the deal ends at once with 0 for everyone.
    pub playout_on_pass: bool,
    /// The called Ace may not be discarded to a trump lead of its suit's Ober or Unter (standard
    /// rules); SchafkopfRL tests the lead card's natural suit and so allows it.
    pub strict_rufsau: bool,
    /// Schwarz means that a party took no trick (standard rules); SchafkopfRL's Schwarz is 120
    /// or 0 card points.
    pub schwarz_by_tricks: bool,
}

/// The rule set names [`Rules::parse`] accepts.
pub const RULES_NAMES: &str = "schafkopfrl or standard";

impl Rules {
    /// SchafkopfRL's environment, step for step (the default).
    pub const SCHAFKOPFRL: Rules = Rules { playout_on_pass: true, strict_rufsau: false, schwarz_by_tricks: false };
    /// The standard rules: Schwarz by tricks, strict Rufsau, an all-pass deal ends at once.
    pub const STANDARD: Rules = Rules { playout_on_pass: false, strict_rufsau: true, schwarz_by_tricks: true };

    /// The rule set named `name` (`schafkopfrl` or `standard`, case-insensitive).
    pub fn parse(name: &str) -> Result<Rules> {
        match name.trim().to_ascii_lowercase().as_str() {
            "schafkopfrl" => Ok(Rules::SCHAFKOPFRL),
            "standard" => Ok(Rules::STANDARD),
            _ => Err(Error::invalid("rules", name, RULES_NAMES)),
        }
    }

    /// The name of a named rule set (`schafkopfrl`, `standard`), else `custom`.
    pub fn name(self) -> &'static str {
        if self == Rules::SCHAFKOPFRL {
            "schafkopfrl"
        } else if self == Rules::STANDARD {
            "standard"
        } else {
            "custom"
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::SCHAFKOPFRL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(Rules::parse("SchafkopfRL").unwrap(), Rules::SCHAFKOPFRL);
        assert_eq!(Rules::parse("standard").unwrap().name(), "standard");
        assert!(Rules::parse("bavarian").unwrap_err().to_string().contains("schafkopfrl or standard"));
        assert_eq!(Rules::default(), Rules::SCHAFKOPFRL);
    }
}
