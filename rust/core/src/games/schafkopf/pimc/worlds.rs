//! Determinization (being written).
