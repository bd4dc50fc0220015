//! fastmsm-msm's integration tests, one binary: each module one subject, every MSM through the
//! front door (`fastmsm_msm::msm`) or the workers' protocol, checked against arkworks.

#[macro_use]
mod common;

mod ark_api;
mod book_tables;
mod building_blocks;
mod checks;
mod cuzk;
mod digits;
mod door;
mod glv;
mod shares;
