//! Moving data between host and GPU buffers, identically on native adapters and in the browser.

use wgpu::util::DeviceExt;

use crate::{GpuContext, GpuError};

/// A read-only storage buffer holding `data`.
pub fn upload_u32(ctx: &GpuContext, label: &str, data: &[u32]) -> wgpu::Buffer {
    // WebGPU rejects zero-sized bindings; keep one word so empty inputs still form a valid bind group.
    let bytes: &[u8] = if data.is_empty() {
        &[0; 4]
    } else {
        bytemuck::cast_slice(data)
    };
    ctx.device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        })
}

/// A uniform buffer holding `data` (parameters such as element counts).
pub fn uniform_u32(ctx: &GpuContext, label: &str, data: &[u32]) -> wgpu::Buffer {
    ctx.device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(data),
            usage: wgpu::BufferUsages::UNIFORM,
        })
}

/// A writable storage buffer of `words` u32 that can be copied back to the host.
pub fn output_u32(ctx: &GpuContext, label: &str, words: usize) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (words.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    })
}

/// Copies the first `words` u32 of `src` back to the host.
pub async fn read_u32(
    ctx: &GpuContext,
    src: &wgpu::Buffer,
    words: usize,
) -> Result<Vec<u32>, GpuError> {
    read_many(ctx, &[(src, words)]).await
}

/// Copies the first words of each source back to the host, concatenated, in one transfer.
///
/// The wait is portable: natively we block in `poll`; in a browser the map callback fires when the
/// GPU is done and the awaiting task resumes.
pub async fn read_many(
    ctx: &GpuContext,
    sources: &[(&wgpu::Buffer, usize)],
) -> Result<Vec<u32>, GpuError> {
    start_read(ctx, sources).wait(ctx).await
}

/// A read-back whose copies are submitted and whose map is requested: [`start_read`]'s half of
/// [`read_many`], apart so that a caller can time the submit and the wait on its own clock.
pub struct PendingRead {
    /// The host-visible copy and the receiver of its map callback; `None` for nothing to read.
    staging: Option<(
        wgpu::Buffer,
        futures_channel::oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>,
    )>,
}

/// Records the copies of [`read_many`] into a fresh staging buffer, submits them and asks for the
/// map; [`PendingRead::wait`] gets the words.
pub fn start_read(ctx: &GpuContext, sources: &[(&wgpu::Buffer, usize)]) -> PendingRead {
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("readback"),
        });
    let staging = record_read(ctx, &mut encoder, sources);
    ctx.queue.submit([encoder.finish()]);
    PendingRead::map(staging)
}

/// Records the copies of [`read_many`] into `encoder`, behind the work recorded there (one
/// submission for both, where [`start_read`] makes one of its own): the host-visible buffer they
/// fill, `None` for nothing to read. Once `encoder` is submitted, [`PendingRead::map`] asks for it.
pub fn record_read(
    ctx: &GpuContext,
    encoder: &mut wgpu::CommandEncoder,
    sources: &[(&wgpu::Buffer, usize)],
) -> Option<wgpu::Buffer> {
    let total: usize = sources.iter().map(|s| s.1).sum();
    if total == 0 {
        return None;
    }
    let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: (total * 4) as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut offset = 0;
    for &(src, words) in sources {
        encoder.copy_buffer_to_buffer(src, 0, &staging, offset, (words * 4) as u64);
        offset += (words * 4) as u64;
    }
    Some(staging)
}

impl PendingRead {
    /// Asks for the map of a buffer from [`record_read`] whose copies are submitted.
    pub fn map(staging: Option<wgpu::Buffer>) -> Self {
        let staging = staging.map(|staging| {
            let (sender, receiver) = futures_channel::oneshot::channel();
            staging
                .slice(..)
                .map_async(wgpu::MapMode::Read, move |result| {
                    let _ = sender.send(result);
                });
            (staging, receiver)
        });
        PendingRead { staging }
    }

    /// Waits for the map (natively: polls until the GPU is done) and copies the words out.
    pub async fn wait(self, ctx: &GpuContext) -> Result<Vec<u32>, GpuError> {
        let Some((staging, receiver)) = self.staging else {
            return Ok(Vec::new());
        };
        #[cfg(not(target_arch = "wasm32"))]
        ctx.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        #[cfg(target_arch = "wasm32")]
        let _ = ctx;
        receiver
            .await
            .map_err(|_| {
                GpuError::Readback("the device was dropped before the map finished".into())
            })?
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let words_out = {
            let view = staging
                .get_mapped_range(..)
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            bytemuck::cast_slice::<u8, u32>(&view).to_vec()
        };
        staging.unmap();
        Ok(words_out)
    }
}

/// Splits `workgroups` into an (x, y) grid that respects `maxComputeWorkgroupsPerDimension`.
/// Shaders recover the flat index as `gid.x + gid.y * num_workgroups.x * WORKGROUP_SIZE`.
pub fn dispatch_grid(ctx: &GpuContext, workgroups: u32) -> Result<(u32, u32), GpuError> {
    let max = ctx.limits.max_compute_workgroups_per_dimension;
    if workgroups <= max {
        return Ok((workgroups.max(1), 1));
    }
    let y = workgroups.div_ceil(max);
    if y > max {
        return Err(GpuError::LimitExceeded {
            what: "dispatch".into(),
            needed: workgroups as u64,
            limit: max as u64 * max as u64,
        });
    }
    Ok((workgroups.div_ceil(y), y))
}

/// Waits until the GPU has finished everything submitted so far (portable: on the web the
/// callback fires from the browser's event loop; natively we poll).
pub async fn wait_idle(ctx: &GpuContext) -> Result<(), GpuError> {
    let (sender, receiver) = futures_channel::oneshot::channel();
    ctx.queue.on_submitted_work_done(move || {
        let _ = sender.send(());
    });
    #[cfg(not(target_arch = "wasm32"))]
    ctx.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Validation(e.to_string()))?;
    receiver
        .await
        .map_err(|_| GpuError::Validation("the device was lost while waiting".into()))
}
