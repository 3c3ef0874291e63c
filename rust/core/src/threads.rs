//! Thread pools: a `threads` argument, else `CFRKIT_NUM_THREADS`, else all cores.

use crate::error::{Error, Result};

/// Resolves a requested thread count (0 = default) to a concrete number.
pub fn resolve(threads: usize) -> Result<usize> {
    if threads > 0 {
        return Ok(threads);
    }
    if let Ok(v) = std::env::var("CFRKIT_NUM_THREADS") {
        return match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(Error::invalid("CFRKIT_NUM_THREADS", v, "a positive integer")),
        };
    }
    Ok(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}

/// Builds a rayon pool with `threads` threads (0 = default).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    let n = resolve(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("cfrkit-{i}"))
        .build()
        .map_err(|e| Error::invalid("threads", n, format!("a thread count the system allows ({e})")))
}
