//! Thread pools: a `threads` argument, else `CFRKIT_NUM_THREADS`, else all cores — at most
//! [`MAX_THREADS`], so that a typo such as `--threads 100000` is an error, not a hang spawning
//! threads.

use crate::error::{Error, Result};

/// The most threads a pool may have: far above the cores of any machine cfrkit runs on, and
/// low enough that spawning them is quick.
pub const MAX_THREADS: usize = 1024;

/// The error of a bad thread count `value` (a number, or the text a caller could not convert).
pub fn invalid(value: impl ToString) -> Error {
    Error::invalid("threads", value, format!("an integer from 0 to {MAX_THREADS}; 0 = CFRKIT_NUM_THREADS or all cores"))
}

/// Checks a requested thread count (0 = default) without resolving it.
pub fn check(threads: u64) -> Result<usize> {
    match usize::try_from(threads) {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(invalid(threads)),
    }
}

/// Resolves a requested thread count (0 = default) to a concrete number from 1 to
/// [`MAX_THREADS`].
pub fn resolve(threads: usize) -> Result<usize> {
    resolve_with(threads, std::env::var("CFRKIT_NUM_THREADS").ok())
}

/// [`resolve`] with the value of `CFRKIT_NUM_THREADS` given.
fn resolve_with(threads: usize, env: Option<String>) -> Result<usize> {
    if check(threads as u64)? > 0 {
        return Ok(threads);
    }
    if let Some(v) = env {
        return match v.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
            _ => Err(Error::invalid("CFRKIT_NUM_THREADS", v, format!("an integer from 1 to {MAX_THREADS}"))),
        };
    }
    Ok(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(MAX_THREADS))
}

thread_local! {
    static IN_PARALLEL_UNIT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, one unit of work that runs beside others on all the pool's threads (a game of a
/// parallel match), so that work inside it that was not given a thread count of its own stays
/// on this thread instead of competing for the same cores ([`in_parallel_unit`]).
pub fn parallel_unit<T>(f: impl FnOnce() -> T) -> T {
    let previous = IN_PARALLEL_UNIT.with(|c| c.replace(true));
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            IN_PARALLEL_UNIT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(previous);
    f()
}

/// Whether this thread runs a unit of parallel work ([`parallel_unit`]).
pub fn in_parallel_unit() -> bool {
    IN_PARALLEL_UNIT.with(|c| c.get())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_up_to_the_cap_are_kept() {
        assert_eq!(resolve_with(1, None).unwrap(), 1);
        assert_eq!(resolve_with(MAX_THREADS, Some("3".into())).unwrap(), MAX_THREADS);
        assert_eq!(resolve_with(0, Some(" 3 ".into())).unwrap(), 3);
        let all = resolve_with(0, None).unwrap();
        assert!((1..=MAX_THREADS).contains(&all));
        assert_eq!(check(0).unwrap(), 0);
        assert_eq!(check(MAX_THREADS as u64).unwrap(), MAX_THREADS);
    }

    #[test]
    fn counts_above_the_cap_are_refused_with_the_value_and_the_limit() {
        for bad in [MAX_THREADS + 1, 100_000, usize::MAX] {
            let e = resolve_with(bad, None).unwrap_err().to_string();
            assert!(e.contains(&format!("threads: \"{bad}\"")) && e.contains("from 0 to 1024"), "{e}");
        }
        assert!(check(u64::MAX).is_err());
        // The pool is refused before any thread is spawned.
        assert!(pool(100_000).is_err());
    }

    #[test]
    fn the_environment_is_capped_too() {
        for bad in ["0", "100000", "-1", "many"] {
            let e = resolve_with(0, Some(bad.into())).unwrap_err().to_string();
            assert!(e.contains("CFRKIT_NUM_THREADS") && e.contains(bad), "{e}");
        }
    }
}
