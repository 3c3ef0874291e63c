//! cfrkit-core: games, compiled public trees, CFR-family solvers and evaluation, in pure Rust.
//!
//! Python bindings live in the `cfrkit-python` crate; nothing here knows about Python.

pub mod arena;
pub mod cards;
pub mod cfr;
pub mod error;
pub mod eval;
pub mod game;
pub mod games;
pub mod key_list;
pub mod keying;
pub mod learn;
pub mod policy;
pub mod prefetch;
pub mod sampled;
pub mod search;
pub mod spec;
pub mod stop;
pub mod store;
pub mod streams;
pub mod threads;
pub mod tree;
pub mod trick;

pub use error::{Error, Result};
pub use key_list::KeyList;
