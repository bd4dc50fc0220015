//! Host side of the Fast MSM GPU code: one wgpu path for native adapters (Vulkan, Metal, DX12, GL)
//! and for WebGPU in the browser.
//!
//! * [`context`] finds an adapter and opens a device, and reports what the adapter can do.
//! * [`wgsl`] assembles shader source: constants are injected from Rust, never typed into WGSL.
//! * [`transfer`] moves data in and out of GPU buffers on every platform.
//! * [`bigint`] is the first kernel: limb-wise big-integer addition with carries.
//! * [`field`] is prime-field arithmetic for 12- to 16-bit limbs; [`mont_wgsl`] generates its
//!   Montgomery product.

pub mod bench;
pub mod bigint;
pub mod context;
pub mod error;
pub mod field;
pub mod mont_wgsl;
pub mod msm;
pub mod transfer;
pub mod wgsl;

#[cfg(not(target_arch = "wasm32"))]
pub mod testing;

pub use context::{AdapterReport, GpuContext};
pub use error::GpuError;
