use thiserror::Error;

/// Everything that can go wrong on the GPU path, each with a message a user can act on.
#[derive(Debug, Error)]
pub enum GpuError {
    #[error(
        "no GPU adapter found ({0}); natively install a Vulkan driver (e.g. Debian's mesa-vulkan-drivers), in a browser enable WebGPU"
    )]
    NoAdapter(String),
    #[error("the adapter refused to open a device: {0}")]
    RequestDevice(String),
    #[error("the GPU rejected the work: {0}")]
    Validation(String),
    #[error("reading a result buffer back failed: {0}")]
    Readback(String),
    #[error("shader template: {0}")]
    Template(String),
    #[error("bad input: {0}")]
    Input(String),
    #[error("{what} needs {needed}, but the device allows at most {limit}")]
    LimitExceeded {
        what: String,
        needed: u64,
        limit: u64,
    },
}
