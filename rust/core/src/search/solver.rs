//! The perfect-information solver trait: how a game solves one world for PIMC.

/// A game's perfect-information solver. Solvers keep tables (transposition tables, move
/// caches) worth reusing across decisions, so the PIMC loop runs each world on the solver of
/// the thread it runs on.
pub trait PerfectInfoSolver: Sized {
    /// Runs `f` with the calling thread's solver (created on first use, kept afterwards).
    fn with_thread_solver<T>(f: impl FnOnce(&mut Self) -> T) -> T;
}
