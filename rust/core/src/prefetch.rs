//! A cache-line prefetch hint, for walks that know an address well before they read it.

/// Asks the CPU to fetch the cache line holding `*p` into all cache levels. A hint only: it
/// reads nothing the program sees, never faults, and does nothing on other architectures.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch of any address is allowed; it has no visible effect.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
