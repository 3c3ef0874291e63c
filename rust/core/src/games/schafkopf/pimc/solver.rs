//! The perfect-information solver (being written).
