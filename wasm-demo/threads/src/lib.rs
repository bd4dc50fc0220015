//! `wasm-demo/src/shares.rs` compiled for shared memory (`+atomics`) and relaxed SIMD. The page's
//! pool (book/widgets/cpu-pool.js) instantiates this module in every worker over the same memory
//! (`shared_module_and_memory`), so the points and scalars are there once and each worker runs
//! `run_kept_share` on its share.

#[allow(dead_code)]
#[path = "../../src/js.rs"]
mod js;

#[path = "../../src/shares.rs"]
mod shares;
pub use shares::*;
