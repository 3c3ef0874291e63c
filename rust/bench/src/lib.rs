//! cfrkit's measurement programs live in `examples/` (`cargo run --release -p cfrkit-bench
//! --example NAME`); this crate has no code of its own. They are a crate of their own so that
//! `cargo test -p cfrkit-core` does not build and link each of them with the release profile.
