//! Benchmark kernels that the MSM does not use (cargo feature `bench`): the Montgomery throughput
//! benchmark of the book's WGSL widget and of `wgsl-mont-bench`.

pub mod mont_throughput;
