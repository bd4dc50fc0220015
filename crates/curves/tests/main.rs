//! fastmsm-curves's integration tests, one binary: each file beside this one is a module.

mod common;

mod ark_bridge;
mod constants;
mod field;
mod points;
