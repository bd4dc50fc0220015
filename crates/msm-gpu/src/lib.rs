//! Host side of the Fast MSM GPU code: one wgpu path for native adapters (Vulkan, Metal, DX12, GL)
//! and for WebGPU in the browser.
//!
//! * [`context`] finds an adapter and opens a device, and reports what the adapter can do.
//! * [`wgsl`] assembles shader source: constants are injected from Rust, never typed into WGSL.
//! * [`transfer`] moves data in and out of GPU buffers on every platform.
//! * [`bigint`] is the first kernel: limb-wise big-integer addition with carries.
//! * [`field`] is prime-field arithmetic for 12- to 16-bit limbs; [`mont_wgsl`] generates its
//!   Montgomery product.
//! * [`msm`] is the whole MSM; its default plan reads a [`profile::DeviceProfile`] (what it needs
//!   to know about the GPU), which [`calibrate`] measures on the device in a fraction of a second,
//!   or which a caller names (`h200`, `h100`, `swiftshader`, `lavapipe`, `portable`) for
//!   reproducible runs. Natively calibrations are cached in a JSON file
//!   ([`calibrate::default_cache_path`]); the book's widget keeps them in `localStorage`.
//! * `experiments` (cargo feature `experiments`, off by default): the Montgomery throughput
//!   benchmark of the book's widget and `wgsl-mont-bench`, and builds of the MSM from edited
//!   shader source, for timing a change before it goes into the shaders.

#![deny(missing_docs)]

pub mod bigint;
pub mod calibrate;
pub mod context;
pub mod error;
#[cfg(feature = "experiments")]
pub mod experiments;
pub mod field;
pub mod mont_wgsl;
pub mod msm;
pub mod profile;
pub mod transfer;
pub mod wgsl;

#[cfg(not(target_arch = "wasm32"))]
pub mod testing;

pub use context::{AdapterReport, GpuContext};
pub use error::GpuError;
pub use profile::DeviceProfile;
