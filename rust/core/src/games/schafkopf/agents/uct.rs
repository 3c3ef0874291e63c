//! SchafkopfRL's PIMC agent (being written).
