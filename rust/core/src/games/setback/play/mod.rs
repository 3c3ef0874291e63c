//! Playing whole Setback games: agents, duplicate matches, the strategy database. See specs/setback.md §4–§5.
