//! Moving a batch of packed points and scalars into their device buffers, by one of the paths of
//! [`UploadPath`].
//!
//! By default a MAP_WRITE staging buffer is kept for the plan, mapped between uses, filled by the
//! host and copied on the GPU, natively and in the browser. Natively `queue.write_buffer` takes
//! fresh staging memory on every call; in a page, a writeBuffer of a whole 100 MB input goes
//! through the channel to the GPU process as one command, which that process then copies again,
//! while a kept mapped buffer is shared memory the page writes once. The kept buffer was the faster
//! in both (benches/experiments.json, "upload path" and "browser upload path"); the other paths
//! stay selectable, since the answer may differ with the browser and the GPU.

use super::trace::Trace;
use crate::{GpuContext, GpuError};

type MapResult = Result<(), wgpu::BufferAsyncError>;

/// How the input reaches the GPU's buffers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UploadPath {
    /// `Staging`, natively and in the browser.
    #[default]
    Auto,
    /// One `queue.write_buffer` per destination buffer.
    WriteBuffer,
    /// `queue.write_buffer` in pieces of at most this many bytes (a multiple of 4).
    Chunked(u64),
    /// A MAP_WRITE buffer kept with the plan's buffers: mapped, filled by the host, copied on the
    /// GPU, and mapped again in the background for the next batch.
    Staging,
}

impl UploadPath {
    /// `auto`, `write-buffer`, `staging`, or `chunked:<size>` with the size in bytes or with a
    /// `K` or `M` suffix (KiB, MiB): a multiple of 4 bytes, at least 4 KiB.
    pub fn parse(text: &str) -> Result<Self, GpuError> {
        let bad = |why: &str| {
            GpuError::Input(format!(
                "upload path {text:?}: {why}; one of auto, write-buffer, staging, chunked:<size> (e.g. chunked:1M)"
            ))
        };
        Ok(match text {
            "auto" | "" => Self::Auto,
            "write-buffer" => Self::WriteBuffer,
            "staging" => Self::Staging,
            _ => {
                let size = text
                    .strip_prefix("chunked:")
                    .ok_or_else(|| bad("unknown"))?;
                let (digits, unit) = match size.as_bytes().last() {
                    Some(b'K' | b'k') => (&size[..size.len() - 1], 1 << 10),
                    Some(b'M' | b'm') => (&size[..size.len() - 1], 1 << 20),
                    _ => (size, 1),
                };
                let bytes = digits
                    .parse::<u64>()
                    .ok()
                    .and_then(|d| d.checked_mul(unit))
                    .ok_or_else(|| bad("the piece size is not a number"))?;
                if bytes < 4096 || bytes % 4 != 0 {
                    return Err(bad("pieces must be a multiple of 4 bytes and at least 4K"));
                }
                Self::Chunked(bytes)
            }
        })
    }

    /// The name [`UploadPath::parse`] reads, with `Auto` resolved for this target.
    pub fn name(self) -> String {
        match self.resolved() {
            Self::WriteBuffer => "write-buffer".into(),
            Self::Staging => "staging".into(),
            Self::Chunked(b) if b % (1 << 20) == 0 => format!("chunked:{}M", b >> 20),
            Self::Chunked(b) if b % (1 << 10) == 0 => format!("chunked:{}K", b >> 10),
            Self::Chunked(b) => format!("chunked:{b}"),
            Self::Auto => unreachable!("resolved"),
        }
    }

    fn resolved(self) -> Self {
        match self {
            Self::Auto => Self::Staging,
            other => other,
        }
    }
}

pub(super) struct Uploader {
    /// Bytes of the largest batch: the staging buffer's size.
    bytes: u64,
    /// Created on the first staging upload (natively at once: it is the default there).
    staging: Option<Staging>,
}

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
        let staging =
            (UploadPath::Auto.resolved() == UploadPath::Staging).then(|| Staging::new(ctx, bytes));
        Self { bytes, staging }
    }

    /// Copies each `(name, destination, words)` to offset 0 of its destination by `path`, recording
    /// each call in `trace` under the part's name. The staging path's GPU copies run in their own submission, ahead of the
    /// passes recorded after this call.
    pub(super) async fn upload(
        &mut self,
        ctx: &GpuContext,
        parts: &[Part<'_>],
        path: UploadPath,
        trace: &mut Trace<'_>,
    ) -> Result<(), GpuError> {
        match path.resolved() {
            UploadPath::Staging => {
                let bytes = self.bytes;
                let staging = self.staging.get_or_insert_with(|| Staging::new(ctx, bytes));
                staging.upload(ctx, parts, trace).await?;
            }
            UploadPath::Chunked(piece) => {
                for (name, dst, words) in parts {
                    let t = trace.start();
                    let bytes: &[u8] = bytemuck::cast_slice(words);
                    for (i, chunk) in bytes.chunks(piece as usize).enumerate() {
                        ctx.queue.write_buffer(dst, i as u64 * piece, chunk);
                    }
                    trace.end(t, || {
                        let pieces = bytes.len().div_ceil(piece as usize);
                        format!("write_buffer {name}: {} B in {pieces} pieces", bytes.len())
                    });
                }
            }
            UploadPath::WriteBuffer | UploadPath::Auto => {
                for (name, dst, words) in parts {
                    let t = trace.start();
                    ctx.queue.write_buffer(dst, 0, bytemuck::cast_slice(words));
                    trace.end(t, || format!("write_buffer {name}: {} B", words.len() * 4));
                }
            }
        }
        Ok(())
    }
}

/// What to upload: a name for the trace, the destination buffer, the words for its offset 0.
pub(super) type Part<'a> = (&'static str, &'a wgpu::Buffer, &'a [u32]);

impl Staging {
    fn new(ctx: &GpuContext, bytes: u64) -> Self {
        Staging {
            buffer: ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("input staging"),
                size: bytes.next_multiple_of(4).max(4),
                usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: true,
            }),
            remap: None,
        }
    }

    async fn upload(
        &mut self,
        ctx: &GpuContext,
        parts: &[Part<'_>],
        trace: &mut Trace<'_>,
    ) -> Result<(), GpuError> {
        if let Some((index, mapped)) = self.remap.take() {
            let t = trace.start();
            // Only the earlier copy must be done, not the passes queued behind it. (In a browser
            // the map's promise settles by itself.)
            #[cfg(not(target_arch = "wasm32"))]
            ctx.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(index),
                    timeout: None,
                })
                .map_err(|e| GpuError::Validation(e.to_string()))?;
            #[cfg(target_arch = "wasm32")]
            let _ = index;
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
            trace.end(t, || "staging: wait for the map".into());
        }
        let t = trace.start();
        let mut offset = 0;
        for (_, _, words) in parts {
            let bytes: &[u8] = bytemuck::cast_slice(words);
            if !bytes.is_empty() {
                fill(&self.buffer, offset, bytes)?;
            }
            offset += bytes.len() as u64;
        }
        trace.end(t, || format!("staging: copy {offset} B into the mapping"));
        let t = trace.start();
        self.buffer.unmap();
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("input upload"),
            });
        let mut offset = 0;
        for (_, dst, words) in parts {
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
        trace.end(t, || "staging: unmap, submit the copy, map again".into());
        Ok(())
    }
}

/// Copies `src` into the mapped `buffer` at `offset` (a multiple of 8). Natively over several
/// threads.
#[cfg(not(target_arch = "wasm32"))]
fn fill(buffer: &wgpu::Buffer, offset: u64, src: &[u8]) -> Result<(), GpuError> {
    let mut view = buffer
        .slice(offset..offset + src.len() as u64)
        .get_mapped_range_mut()
        .map_err(|e| GpuError::Validation(e.to_string()))?;
    parallel_copy(view.slice(..), src);
    Ok(())
}

/// Copies `src` into the mapped `buffer` at `offset` (a multiple of 8): one copy from wasm memory
/// into the range's ArrayBuffer, asked of WebGPU directly. wgpu's own write view would first copy
/// the whole range into wasm memory and copy it back on drop: two more copies of the input and as
/// much wasm memory again.
#[cfg(target_arch = "wasm32")]
fn fill(buffer: &wgpu::Buffer, offset: u64, src: &[u8]) -> Result<(), GpuError> {
    let raw = buffer.as_webgpu().ok_or_else(|| {
        GpuError::Validation("the input staging buffer is not a WebGPU buffer".into())
    })?;
    let range = raw
        .get_mapped_range_with_f64_and_f64(offset as f64, src.len() as f64)
        .map_err(|e| {
            GpuError::Validation(format!("getMappedRange of the input staging buffer: {e:?}"))
        })?;
    js_sys::Uint8Array::new(&range).copy_from(src);
    Ok(())
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
    use super::UploadPath;

    #[test]
    fn upload_paths_parse_and_name() {
        for (text, path) in [
            ("auto", UploadPath::Auto),
            ("write-buffer", UploadPath::WriteBuffer),
            ("staging", UploadPath::Staging),
            ("chunked:1M", UploadPath::Chunked(1 << 20)),
            ("chunked:64K", UploadPath::Chunked(64 << 10)),
            ("chunked:8192", UploadPath::Chunked(8192)),
        ] {
            assert_eq!(UploadPath::parse(text).unwrap(), path, "{text}");
        }
        assert_eq!(
            UploadPath::Auto.name(),
            "staging",
            "natively the kept buffer"
        );
        assert_eq!(UploadPath::Chunked(1 << 20).name(), "chunked:1M");
        assert_eq!(UploadPath::Chunked(8192).name(), "chunked:8K");
        for bad in [
            "stage",
            "chunked:",
            "chunked:1G",
            "chunked:6",
            "chunked:4098",
            "chunked:xM",
        ] {
            let e = UploadPath::parse(bad).unwrap_err().to_string();
            assert!(
                e.contains(bad) && e.contains("chunked:<size>"),
                "{bad}: {e}"
            );
        }
    }

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
