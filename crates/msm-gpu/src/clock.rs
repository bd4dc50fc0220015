//! The default clock of timings and calibration: seconds on a monotonic clock natively (since its
//! first use in the process), `Date.now()` in WebAssembly, where callers that want a finer clock
//! pass `performance.now()` instead.

/// Seconds since an arbitrary origin fixed for the process.
#[cfg(not(target_arch = "wasm32"))]
pub fn seconds() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Seconds since the Unix epoch, to the millisecond.
#[cfg(target_arch = "wasm32")]
pub fn seconds() -> f64 {
    js_sys::Date::now() / 1e3
}
