//! Measurement code that the MSM itself does not use (cargo feature `experiments`): the book's
//! Montgomery throughput widget and `wgsl-mont-bench` run [`mont_throughput`]; the benchmark's
//! `--edit` variants and the tests of the SMVP forms that no device profile picks build the MSM
//! from edited source ([`source_edit`]).

pub mod mont_throughput;
pub mod source_edit;
