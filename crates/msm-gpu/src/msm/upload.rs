//! Moving a batch of packed points and scalars into their device buffers, by one of the paths of
//! [`UploadPath`].
//!
//! By default a MAP_WRITE staging buffer is kept for the plan, mapped between uses, filled by the
//! host and copied on the GPU. Natively `queue.write_buffer` takes fresh staging memory on every
//! call; in a page, a writeBuffer of a whole 100 MB input goes through the channel to the GPU
//! process as one command, which that process then copies again, while a kept mapped buffer is
//! shared memory the page writes once. The kept buffer was the faster in both
//! (benches/experiments.json, "upload path" and "browser upload path"); the other paths stay
//! selectable, since the answer may differ with the browser and the GPU.
//!
//! In a page the kept buffer still leaves three copies in a row: the page's into the shared
//! memory, the GPU process's out of it into the buffer at unmap, and the GPU's DMA, each of the
//! whole input before the first pass. [`UploadPath::Pipelined`], the page's default, sends the
//! input in pieces through a ring of kept buffers, so that the page fills piece k + 1 while the
//! GPU process copies piece k and the GPU reads it: the three overlap, and only the last piece's
//! copies follow the page's own. With the plan's batches (four in a page, [`super::Plan`]) they
//! also overlap the GPU's work on the batch before. The book's ledger ("Pieces through a ring,
//! and four batches") has what was expected and what the H100 gave.

use super::trace::Trace;
use crate::{GpuContext, GpuError};

type MapResult = Result<(), wgpu::BufferAsyncError>;

/// The pieces of [`UploadPath::Pipelined`] in a page (`auto`): 12 pieces for a 100 MB input, whose
/// last piece's copy in the GPU process (about 1.4 ms on the H100) is what the ring does not hide.
pub const DEFAULT_PIECE_BYTES: u64 = 8 << 20;

/// How the input reaches the GPU's buffers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UploadPath {
    /// `Staging` natively (the host's copy runs on several threads, and the GPU reads mapped
    /// memory with no copy in between), `Pipelined` with [`DEFAULT_PIECE_BYTES`] in the browser.
    #[default]
    Auto,
    /// One `queue.write_buffer` per destination buffer.
    WriteBuffer,
    /// `queue.write_buffer` in pieces of at most this many bytes (a multiple of 8).
    Chunked(u64),
    /// A MAP_WRITE buffer kept with the plan's buffers: mapped, filled by the host, copied on the
    /// GPU, and mapped again in the background for the next batch.
    Staging,
    /// The input in pieces of at most this many bytes (a multiple of 8), each through one of a
    /// ring of kept MAP_WRITE buffers of that size (as many as one batch needs, so as much memory
    /// as `Staging`): filled, copied in a submission of its own and mapped again while the host
    /// fills the next. In a page each piece is handed to the GPU process before the next is
    /// filled.
    Pipelined(u64),
}

impl UploadPath {
    /// `auto`, `write-buffer`, `staging`, `chunked:<size>` or `pipelined:<size>`, with the size in
    /// bytes or with a `K` or `M` suffix (KiB, MiB): a multiple of 8 bytes, at least 4 KiB.
    pub fn parse(text: &str) -> Result<Self, GpuError> {
        let bad = |why: &str| {
            GpuError::Input(format!(
                "upload path {text:?}: {why}; one of auto, write-buffer, staging, chunked:<size>, \
                 pipelined:<size> (e.g. chunked:1M)"
            ))
        };
        let pieces = |size: &str| {
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
            if bytes < 4096 || !bytes.is_multiple_of(8) {
                return Err(bad("pieces must be a multiple of 8 bytes and at least 4K"));
            }
            Ok(bytes)
        };
        Ok(match text {
            "auto" | "" => Self::Auto,
            "write-buffer" => Self::WriteBuffer,
            "staging" => Self::Staging,
            _ => match text.split_once(':') {
                Some(("chunked", size)) => Self::Chunked(pieces(size)?),
                Some(("pipelined", size)) => Self::Pipelined(pieces(size)?),
                _ => return Err(bad("unknown")),
            },
        })
    }

    /// The name [`UploadPath::parse`] reads, with `Auto` resolved for this target.
    pub fn name(self) -> String {
        let size = |b: u64| match b {
            _ if b.is_multiple_of(1 << 20) => format!("{}M", b >> 20),
            _ if b.is_multiple_of(1 << 10) => format!("{}K", b >> 10),
            _ => b.to_string(),
        };
        match self.resolved() {
            Self::WriteBuffer => "write-buffer".into(),
            Self::Staging => "staging".into(),
            Self::Chunked(b) => format!("chunked:{}", size(b)),
            Self::Pipelined(b) => format!("pipelined:{}", size(b)),
            Self::Auto => unreachable!("resolved"),
        }
    }

    fn resolved(self) -> Self {
        match self {
            Self::Auto if cfg!(target_arch = "wasm32") => Self::Pipelined(DEFAULT_PIECE_BYTES),
            Self::Auto => Self::Staging,
            other => other,
        }
    }

    /// Whether the host's copy of one batch overlaps the GPU's work on the batch before it, so
    /// that the plan's default split into batches pays ([`super::Plan`]): natively always (the
    /// host returns from each call at once), in a page only through a ring of pieces (a kept
    /// buffer is mapped again after the copy, but its single copy in the GPU process still
    /// comes between; `writeBuffer` copies the whole input at once).
    pub(crate) fn overlaps(self) -> bool {
        !cfg!(target_arch = "wasm32") || matches!(self.resolved(), Self::Pipelined(_))
    }

    /// The piece size of a path through kept buffers for batches of at most `bytes`.
    fn piece(self, bytes: u64) -> Option<u64> {
        match self.resolved() {
            Self::Staging => Some(bytes),
            Self::Pipelined(piece) => Some(piece.min(bytes)),
            _ => None,
        }
    }
}

pub(super) struct Uploader {
    /// Bytes of the largest batch.
    bytes: u64,
    /// The kept buffers of `Staging` or `Pipelined`, created on the first such upload (at once
    /// for `auto`, the default).
    ring: Option<Ring>,
}

/// Kept MAP_WRITE buffers, used in turn: enough for one batch in pieces of `piece` bytes.
struct Ring {
    piece: u64,
    slots: Vec<Slot>,
    /// The slot the next piece goes through: the one used longest ago.
    next: usize,
}

struct Slot {
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
        let ring = UploadPath::Auto
            .piece(bytes)
            .map(|piece| Ring::new(ctx, bytes, piece));
        Self { bytes, ring }
    }

    /// Copies each `(name, destination, words)` to offset 0 of its destination by `path`, recording
    /// each call in `trace` under the part's name. The kept buffers' GPU copies run in submissions
    /// of their own, ahead of the passes recorded after this call.
    pub(super) async fn upload(
        &mut self,
        ctx: &GpuContext,
        parts: &[Part<'_>],
        path: UploadPath,
        trace: &mut Trace<'_>,
    ) -> Result<(), GpuError> {
        if let Some(piece) = path.piece(self.bytes) {
            // A ring of another piece size (the caller changed paths) is dropped with its maps.
            let ring = match self.ring.take() {
                Some(ring) if ring.piece == piece => ring,
                _ => Ring::new(ctx, self.bytes, piece),
            };
            let ring = self.ring.insert(ring);
            return ring.upload(ctx, parts, trace).await;
        }
        match path.resolved() {
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
            _ => {
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

impl Ring {
    /// Buffers of `piece` bytes (a multiple of 8, rounded up), as many as `bytes` needs.
    fn new(ctx: &GpuContext, bytes: u64, piece: u64) -> Self {
        let piece = piece.next_multiple_of(8).max(8);
        let slots = (0..bytes.div_ceil(piece).max(1))
            .map(|_| Slot {
                buffer: ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("input staging"),
                    size: piece,
                    usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: true,
                }),
                remap: None,
            })
            .collect();
        Self {
            piece,
            slots,
            next: 0,
        }
    }

    /// The parts one after another, cut into pieces of `self.piece` bytes: each piece waits for
    /// its slot's map, is copied into it, and goes to the GPU in a submission of its own.
    async fn upload(
        &mut self,
        ctx: &GpuContext,
        parts: &[Part<'_>],
        trace: &mut Trace<'_>,
    ) -> Result<(), GpuError> {
        let total: u64 = parts.iter().map(|p| p.2.len() as u64 * 4).sum();
        let mut start = 0;
        while start < total {
            let len = self.piece.min(total - start);
            let count = self.slots.len();
            let slot = &mut self.slots[self.next];
            self.next = (self.next + 1) % count;
            slot.wait(ctx, trace).await?;
            // Each part's share of bytes [start, start + len) of the parts laid end to end: where
            // it goes in the slot, and where in its destination.
            let t = trace.start();
            let mut copies = Vec::with_capacity(parts.len());
            let mut at = 0;
            for (_, dst, words) in parts {
                let bytes: &[u8] = bytemuck::cast_slice(words);
                let (lo, hi) = (at.max(start), (at + bytes.len() as u64).min(start + len));
                if lo < hi {
                    fill(
                        &slot.buffer,
                        lo - start,
                        &bytes[(lo - at) as usize..(hi - at) as usize],
                    )?;
                    copies.push((lo - start, *dst, lo - at, hi - lo));
                }
                at += bytes.len() as u64;
            }
            trace.end(t, || format!("staging: copy {len} B into the mapping"));
            let t = trace.start();
            slot.buffer.unmap();
            let mut encoder = ctx
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("input upload"),
                });
            for (from, dst, to, bytes) in copies {
                encoder.copy_buffer_to_buffer(&slot.buffer, from, dst, to, bytes);
            }
            let index = ctx.queue.submit([encoder.finish()]);
            let (sender, receiver) = futures_channel::oneshot::channel();
            slot.buffer
                .slice(..)
                .map_async(wgpu::MapMode::Write, move |result| {
                    let _ = sender.send(result);
                });
            slot.remap = Some((index, receiver));
            trace.end(t, || "staging: unmap, submit the copy, map again".into());
            start += len;
            hand_over().await;
        }
        Ok(())
    }
}

impl Slot {
    /// Waits until the slot is mapped again after its last copy.
    async fn wait(&mut self, ctx: &GpuContext, trace: &mut Trace<'_>) -> Result<(), GpuError> {
        let Some((index, mapped)) = self.remap.take() else {
            return Ok(());
        };
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
        let _ = (ctx, index);
        mapped
            .await
            .map_err(|_| {
                GpuError::Validation(
                    "the device was lost while mapping the input staging buffer".into(),
                )
            })?
            .map_err(|e| GpuError::Validation(format!("mapping the input staging buffer: {e}")))?;
        trace.end(t, || "staging: wait for the map".into());
        Ok(())
    }
}

/// Lets the browser send what was recorded so far to its GPU process: Chromium sends WebGPU's
/// commands (an unmap, a submit) in a microtask, which runs only when the page's code awaits, so
/// without this the first pieces would wait in the page until the whole input is copied.
/// Natively wgpu hands each call to the driver at once.
async fn hand_over() {
    #[cfg(target_arch = "wasm32")]
    {
        let resolved = js_sys::Promise::resolve(&js_sys::JsString::from(""));
        // A resolved promise: only the turn of the microtask queue is awaited.
        let _ = wasm_bindgen_futures::JsFuture::from(resolved).await;
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
            ("pipelined:8M", UploadPath::Pipelined(8 << 20)),
            ("pipelined:12K", UploadPath::Pipelined(12 << 10)),
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
        assert_eq!(UploadPath::Pipelined(4104).name(), "pipelined:4104");
        assert_eq!(UploadPath::Pipelined(2 << 20).name(), "pipelined:2M");
        assert!(UploadPath::Auto.overlaps() && UploadPath::WriteBuffer.overlaps());
        for bad in [
            "stage",
            "chunked:",
            "chunked:1G",
            "chunked:6",
            "chunked:4098",
            "chunked:xM",
            "chunked:4100",
            "pipelined",
            "pipelined:",
            "pipelined:4K2",
            "pipelined:4100",
            "piped:8M",
        ] {
            let e = UploadPath::parse(bad).unwrap_err().to_string();
            assert!(
                e.contains(bad) && e.contains("pipelined:<size>"),
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
