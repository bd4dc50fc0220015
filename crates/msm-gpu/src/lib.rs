//! Host side of the Fast MSM GPU code: one wgpu path for native adapters (Vulkan, Metal, DX12, GL)
//! and for WebGPU in the browser.
//!
//! * [`context`] finds an adapter and opens a device, and reports what the adapter can do.
//! * [`wgsl`] assembles shader source: constants are injected from Rust, never typed into WGSL.
//! * [`transfer`] moves data in and out of GPU buffers on every platform.
//! * [`bigint`] is the first kernel: limb-wise big-integer addition with carries.
//! * [`field`] is prime-field arithmetic for 12- to 16-bit limbs; [`mont_wgsl`] generates its
//!   Montgomery product.
//! * [`msm`] is the whole MSM: [`msm::GpuMsm::builder`] compiles it for a curve, and its four
//!   calls run it. Its default plan reads a [`profile::DeviceProfile`] (what it needs to know
//!   about the GPU): this device's cached calibration, else the named profile matching the
//!   adapter (`h200`, `h100`, `swiftshader`, `lavapipe`, `portable`), fixed when it is built.
//! * [`calibrate`] measures a profile on the device, in seconds and within a time budget: a
//!   separate step, which the MSM never runs by itself.
//! * `experiments` (cargo feature `experiments`, off by default): forms of the MSM that no profile
//!   selects (the batch-affine SMVP, other mixed additions) and builds from edited shader source.
//! * `bench` (cargo feature `bench`, off by default): the Montgomery throughput benchmark of the
//!   book's widget and of `wgsl-mont-bench`.

#![deny(missing_docs)]

#[cfg(feature = "bench")]
pub mod bench;
pub mod bigint;
pub mod calibrate;
mod clock;
pub mod context;
pub mod error;
#[cfg(feature = "experiments")]
pub mod experiments;
pub mod field;
pub mod mont_wgsl;
pub mod msm;
pub mod profile;
mod shaders;
pub mod transfer;
pub mod wgsl;

#[cfg(not(target_arch = "wasm32"))]
pub mod testing;

pub use context::{AdapterReport, DeviceLimits, GpuContext};
pub use error::GpuError;
pub use profile::DeviceProfile;
