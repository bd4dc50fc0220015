//! fastmsm-mont's integration tests, one binary: each file beside this one is a module.

mod common;

mod algorithms;
mod carry_budget;
mod constants;
mod variants;
