//! Stopping long work within a moment: the stop flag of the work a thread is doing, so that the
//! loops deep inside it (a PIMC decision's worlds) end early when the work is stopped (Ctrl-C)
//! instead of finishing a game that will be thrown away.
//!
//! Work that can be stopped runs its units under [`within`]; a loop deep inside reads the flag
//! with [`current`] on the thread that runs the unit (and hands it to its own worker threads),
//! then calls [`check`] between its steps. Work run under no flag is never stopped.

use crate::error::{Error, Result};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag that stops work when set.
pub type StopFlag = Arc<AtomicBool>;

thread_local! {
    static CURRENT: RefCell<Option<StopFlag>> = const { RefCell::new(None) };
}

/// Puts the thread's previous flag back when dropped (also when `f` panics).
struct Restore(Option<StopFlag>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Runs `f` on this thread with `flag` as the flag of the work it does.
pub fn within<T>(flag: &StopFlag, f: impl FnOnce() -> T) -> T {
    let previous = CURRENT.with(|c| c.borrow_mut().replace(flag.clone()));
    let _restore = Restore(previous);
    f()
}

/// The flag of the work this thread is doing, if it can be stopped.
pub fn current() -> Option<StopFlag> {
    CURRENT.with(|c| c.borrow().clone())
}

/// [`Error::Interrupted`] once `flag` is set.
pub fn check(flag: Option<&AtomicBool>) -> Result<()> {
    match flag {
        Some(f) if f.load(Ordering::Relaxed) => Err(Error::Interrupted),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_holds_inside_its_work_only() {
        let (outer, inner) = (StopFlag::default(), StopFlag::default());
        assert!(current().is_none());
        within(&outer, || {
            within(&inner, || assert!(Arc::ptr_eq(&current().unwrap(), &inner)));
            assert!(Arc::ptr_eq(&current().unwrap(), &outer));
            assert!(check(current().as_deref()).is_ok());
            outer.store(true, Ordering::Relaxed);
            assert!(matches!(check(current().as_deref()), Err(Error::Interrupted)));
        });
        assert!(current().is_none());
        let caught = std::panic::catch_unwind(|| within(&inner, || panic!("in the work")));
        assert!(caught.is_err() && current().is_none());
    }
}
