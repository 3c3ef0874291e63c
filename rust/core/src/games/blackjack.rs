//! Blackjack++ (see specs/blackjack.md). Being written; `load` reports that it is not available yet.

use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::tree::PublicTree;

/// Compiles `blackjack(up=P0-P1-D,max_hits=N)`.
pub fn load(_spec: &Spec) -> Result<PublicTree> {
    Err(Error::UnknownGame { name: "blackjack".into(), known: "kuhn, leduc".into() })
}
