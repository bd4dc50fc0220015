//! Moving a batch of packed points and scalars into their device buffers.
//!
//! Natively a MAP_WRITE staging buffer is kept for the plan, mapped between uses, filled by several
//! host threads and copied on the GPU. `queue.write_buffer` instead takes fresh staging memory on
//! every call, which was three times slower (benches/experiments.json, "upload path"). In the browser
//! `writeBuffer` stays: the page's WebGPU implementation already stages it in shared memory.

use crate::{GpuContext, GpuError};

#[cfg(not(target_arch = "wasm32"))]
type MapResult = Result<(), wgpu::BufferAsyncError>;

pub(super) struct Uploader {
    #[cfg(not(target_arch = "wasm32"))]
    staging: Staging,
}

#[cfg(not(target_arch = "wasm32"))]
struct Staging {
    buffer: wgpu::Buffer,
    /// Set while the buffer is being mapped again: the map completes with the copy's submission.
    remap: Option<(
        wgpu::SubmissionIndex,
        futures_channel::oneshot::Receiver<MapResult>,
    )>,
}

impl Uploader {
    /// An uploader for batches of at most `bytes` bytes in all.
    pub(super) fn new(ctx: &GpuContext, bytes: u64) -> Self {
        #[cfg(target_arch = "wasm32")]
        let _ = (ctx, bytes);
        Self {
            #[cfg(not(target_arch = "wasm32"))]
            staging: Staging {
                buffer: ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("input staging"),
                    size: bytes.max(4),
                    usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: true,
                }),
                remap: None,
            },
        }
    }

    /// Copies each `(destination, words)` to offset 0 of its destination. Natively the GPU copies
    /// run in their own submission, ahead of the passes recorded after this call.
    pub(super) async fn upload(
        &mut self,
        ctx: &GpuContext,
        parts: &[(&wgpu::Buffer, &[u32])],
    ) -> Result<(), GpuError> {
        #[cfg(target_arch = "wasm32")]
        for (dst, words) in parts {
            ctx.queue.write_buffer(dst, 0, bytemuck::cast_slice(words));
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.staging.upload(ctx, parts).await?;
        Ok(())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Staging {
    async fn upload(
        &mut self,
        ctx: &GpuContext,
        parts: &[(&wgpu::Buffer, &[u32])],
    ) -> Result<(), GpuError> {
        if let Some((index, mapped)) = self.remap.take() {
            // Only the earlier copy must be done, not the passes queued behind it.
            ctx.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(index),
                    timeout: None,
                })
                .map_err(|e| GpuError::Validation(e.to_string()))?;
            mapped
                .await
                .map_err(|_| {
                    GpuError::Validation(
                        "the device was lost while mapping the input staging buffer".into(),
                    )
                })?
                .map_err(|e| {
                    GpuError::Validation(format!("mapping the input staging buffer: {e}"))
                })?;
        }
        {
            let mut view = self
                .buffer
                .get_mapped_range_mut(..)
                .map_err(|e| GpuError::Validation(e.to_string()))?;
            let mut offset = 0;
            for (_, words) in parts {
                let bytes: &[u8] = bytemuck::cast_slice(words);
                parallel_copy(view.slice(offset..offset + bytes.len()), bytes);
                offset += bytes.len();
            }
        }
        self.buffer.unmap();
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("input upload"),
            });
        let mut offset = 0;
        for (dst, words) in parts {
            let len = (words.len() * 4) as u64;
            if len > 0 {
                encoder.copy_buffer_to_buffer(&self.buffer, offset, dst, 0, len);
            }
            offset += len;
        }
        let index = ctx.queue.submit([encoder.finish()]);
        let (sender, receiver) = futures_channel::oneshot::channel();
        self.buffer
            .slice(..)
            .map_async(wgpu::MapMode::Write, move |result| {
                let _ = sender.send(result);
            });
        self.remap = Some((index, receiver));
        Ok(())
    }
}

/// `dst.copy_from_slice(src)` split over up to 8 threads: one core's copy into the mapped staging
/// memory is slower than the link (benches/experiments.json, "upload path").
#[cfg(not(target_arch = "wasm32"))]
fn parallel_copy(mut dst: wgpu::WriteOnly<'_, [u8]>, src: &[u8]) {
    /// A piece of the mapped range for one thread. `WriteOnly<[T]>` stands for `&mut [T]`, which is
    /// Send; wgpu 30 implements Send only for sized `T`.
    struct Piece<'a>(wgpu::WriteOnly<'a, [u8]>);
    // SAFETY: each piece is an exclusive, disjoint range of the mapping (split_at), written by one
    // thread, and the scope joins every thread before the view is dropped and the buffer unmapped.
    unsafe impl Send for Piece<'_> {}

    const MIN_PIECE: usize = 4 << 20;
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(8)
        .min(src.len().div_ceil(MIN_PIECE))
        .max(1);
    if threads == 1 {
        dst.copy_from_slice(src);
        return;
    }
    let piece = src.len().div_ceil(threads);
    std::thread::scope(|s| {
        let mut rest = dst;
        for chunk in src.chunks(piece) {
            let (head, tail) = rest.split_at(chunk.len());
            rest = tail;
            let piece = Piece(head);
            s.spawn(move || {
                let mut piece = piece; // the whole Piece moves in, not its (non-Send) field
                piece.0.copy_from_slice(chunk)
            });
        }
    });
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn parallel_copy_copies_every_byte() {
        for len in [0, 1, 7, (4 << 20) + 3, 37 << 20] {
            let src: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let mut dst = vec![0u8; len];
            super::parallel_copy(wgpu::WriteOnly::from(dst.as_mut_slice()), &src);
            assert!(dst == src, "length {len}");
        }
    }
}
