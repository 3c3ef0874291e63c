//! The one error type of the core. Every fallible entry point returns `Result<T>`;
//! user input never causes a panic.

use thiserror::Error;

/// Errors of the cfrkit core. The Python binding maps each variant to one exception class.
#[derive(Debug, Error)]
pub enum Error {
    /// A game spec names no known game.
    #[error("unknown game {name:?}; known games: {known}")]
    UnknownGame { name: String, known: String },
    /// A game spec or argument has a bad value.
    #[error("invalid value for {what}: {value:?} ({allowed})")]
    InvalidValue { what: String, value: String, allowed: String },
    /// An algorithm name is not known.
    #[error("unknown algorithm {name:?}; known algorithms: {known}")]
    UnknownAlgorithm { name: String, known: String },
    /// A game cannot be compiled into the public-tree form.
    #[error("cannot compile game: {0}")]
    Compile(String),
    /// A computation would need more memory than allowed.
    #[error("too large: {0}")]
    TooLarge(String),
    /// A file is not a cfrkit file, is of another kind, or is corrupt.
    #[error("bad file {path}: {reason}")]
    BadFile { path: String, reason: String },
    /// An operating-system I/O error.
    #[error("I/O error on {path}: {source}")]
    Io { path: String, source: std::io::Error },
    /// The computation was interrupted (e.g. Ctrl-C) before it finished.
    #[error("interrupted")]
    Interrupted,
}

/// Result alias of the core.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Shorthand for [`Error::InvalidValue`].
    pub fn invalid(what: impl Into<String>, value: impl ToString, allowed: impl Into<String>) -> Self {
        Error::InvalidValue { what: what.into(), value: value.to_string(), allowed: allowed.into() }
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        Error::Io { path: path.display().to_string(), source }
    }
}
