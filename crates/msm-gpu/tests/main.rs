//! The integration tests of fastmsm-gpu, in one test binary (one link of wgpu and arkworks
//! instead of one per file). The GPU tests run on the test adapter (lavapipe in CI); the
//! contract, profile and book-table tests need no device.
//!
//! `cargo test -p fastmsm-gpu --test main NAME` runs the tests whose path contains NAME.

mod api;
mod bigint_add;
mod book_numbers;
mod book_tables;
mod calibration;
mod contract;
mod device_limits;
mod experiments;
mod field;
mod loop_limit;
mod msm;
mod packed;
mod profile;
mod stages;
mod upload_paths;
