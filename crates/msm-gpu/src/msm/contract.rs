//! What the host and `shaders/msm.wgsl` agree on: the `Params` record every pass reads and the
//! buffers at `@group(0) @binding(i)`. Both are declared once here; the host builds its parameter
//! records, bind-group layouts and bind groups from them, and `tests/contract.rs` parses the
//! assembled shader (naga) and checks it declares the same members and bindings.
//!
//! To add a binding: a variant of [`Binding`] and a row of [`BINDINGS`] (index = position), the
//! buffer in `run.rs`, and the binding in the [`Stage::bindings`](super::Stage::bindings) of the
//! stages that use it.

/// Declares [`Params`] and its member table from one list, so neither can change alone.
macro_rules! params {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty,)*) => {
        /// msm.wgsl's `struct Params`: one record per distinct pass, read from a storage buffer.
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
        pub struct Params {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        impl Params {
            /// (name, byte offset, bytes) of each member, in declaration order: what the shader's
            /// struct must declare.
            pub const MEMBERS: &'static [(&'static str, usize, usize)] = &[$((
                stringify!($field),
                core::mem::offset_of!(Params, $field),
                core::mem::size_of::<$ty>(),
            ),)*];
        }
    };
}

params! {
    /// Points in this batch.
    n: u32,
    /// Index of the batch's first point in the whole input.
    base: u32,
    /// Windows W.
    windows: u32,
    /// Window size c.
    window_bits: u32,
    /// Buckets per window, 2^(c−1) (digit 0 goes to no bucket).
    buckets: u32,
    /// Reduction segments per window; divides `buckets`.
    segments: u32,
    /// `smvp`: T, the batch's chunks when every window is full.
    threads: u32,
    /// `smvp_combine`: F, head slots per invocation.
    fan_in: u32,
    /// `smvp_combine`: the level ℓ ≥ 1.
    level: u32,
    /// `smvp_combine`: invocations in this pass.
    chunks: u32,
    /// `fold`: partial t absorbs partial t + stride.
    stride: u32,
    /// `decompose`, `scatter`: windows of each packed MSM (`windows` is all of them, side by
    /// side); `windows` itself when one MSM runs.
    msm_windows: u32,
    /// Steps of curve_sw.wgsl's stepped general addition, read at run time so that the driver
    /// cannot unroll the loop.
    add_steps: u32,
    /// Copies of every point (precomputed bases): `n` counts them all; 1 otherwise.
    copies: u32,
    /// The first invocation of this dispatch, where one dispatch is cut into several to keep
    /// each submission short (msm/submit.rs); every stage but `prefix` adds it to its index.
    offset: u32,
}

impl Params {
    /// Bytes of one record.
    pub const BYTES: u64 = core::mem::size_of::<Params>() as u64;
}

/// A buffer of msm.wgsl's bind group; the discriminant is its `@binding` index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // each variant is described by its row of BINDINGS
pub enum Binding {
    Params = 0,
    PointsIn = 1,
    Points = 2,
    Scalars = 3,
    Digits = 4,
    Counts = 5,
    Offsets = 6,
    Entries = 7,
    Buckets = 8,
    Partials = 9,
    WindowSums = 10,
    HeadsIn = 11,
    HeadsOut = 12,
    Errors = 13,
    BucketSums = 14,
    LaneValues = 15,
}

/// How a stage may use a binding (`var<storage, read>` or `var<storage, read_write>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// `read`.
    Read,
    /// `read_write`.
    ReadWrite,
}

/// The WGSL type of a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// One [`Params`] record.
    Params,
    /// `array<u32>`.
    U32s,
    /// `array<atomic<u32>>`.
    AtomicU32s,
}

/// One row of the binding table.
#[derive(Clone, Copy, Debug)]
pub struct BindingInfo {
    /// Which binding; `BINDINGS[i].binding` is `@binding(i)`.
    pub binding: Binding,
    /// The variable's name in msm.wgsl.
    pub name: &'static str,
    /// Its address space's access.
    pub access: Access,
    /// Its type.
    pub element: Element,
    /// What it holds, and how it is indexed.
    pub holds: &'static str,
}

const fn row(
    binding: Binding,
    name: &'static str,
    access: Access,
    element: Element,
    holds: &'static str,
) -> BindingInfo {
    BindingInfo {
        binding,
        name,
        access,
        element,
        holds,
    }
}

use Access::{Read, ReadWrite};
use Element::{AtomicU32s, U32s};

/// msm.wgsl's bindings, row i for `@group(0) @binding(i)`.
#[rustfmt::skip]
pub const BINDINGS: [BindingInfo; 16] = [
    row(Binding::Params, "params", Read, Element::Params, "the pass's Params record"),
    row(Binding::PointsIn, "points_in", Read, U32s, "[point]: x, y as packed input words"),
    row(Binding::Points, "points", ReadWrite, U32s, "[point]: Montgomery x, y limbs"),
    row(Binding::Scalars, "scalars", Read, U32s, "[point]: 8 little-endian words"),
    row(Binding::Digits, "digits", ReadWrite, U32s, "[window][point]: bucket | sign"),
    row(Binding::Counts, "counts", ReadWrite, AtomicU32s, "[window][bucket 0..=B]: points, then scatter's cursors"),
    row(Binding::Offsets, "offsets", ReadWrite, U32s, "[window][0..=B+1]: CSR row pointers"),
    row(Binding::Entries, "entries", ReadWrite, U32s, "[window][slot]: point | sign, grouped by bucket"),
    row(Binding::Buckets, "buckets", ReadWrite, U32s, "[window][bucket 0..=B]: Montgomery point"),
    row(Binding::Partials, "partials", ReadWrite, U32s, "[window][segment]: Montgomery point"),
    row(Binding::WindowSums, "window_sums", ReadWrite, U32s, "[window]: canonical point"),
    row(Binding::HeadsIn, "heads_in", Read, U32s, "[slot]: head slots the last SMVP level wrote"),
    row(Binding::HeadsOut, "heads_out", ReadWrite, U32s, "[slot]: head slots of this SMVP level"),
    row(Binding::Errors, "errors", ReadWrite, AtomicU32s, "[0]: first bad coordinate, [1]: first bad scalar"),
    row(Binding::BucketSums, "bucket_sums", ReadWrite, U32s, "[window][bucket 0..=B]: affine x, y of the batch (batch-affine module only)"),
    row(Binding::LaneValues, "lane_values", ReadWrite, U32s, "[lane][coordinate][limb][invocation]: each lane's sum and prefix product (batch-affine module only)"),
];

impl Binding {
    /// Every binding, in index order.
    pub const ALL: [Binding; BINDINGS.len()] = {
        let mut all = [Binding::Params; BINDINGS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = BINDINGS[i].binding;
            i += 1;
        }
        all
    };

    /// Its `@binding` index.
    pub const fn index(self) -> u32 {
        self as u32
    }

    /// Whether only the batch-affine SMVP's module declares it (shaders/experiments/smvp_affine.wgsl).
    pub const fn batch_affine_only(self) -> bool {
        matches!(self, Binding::BucketSums | Binding::LaneValues)
    }

    /// Its row of [`BINDINGS`].
    pub fn info(self) -> &'static BindingInfo {
        &BINDINGS[self as usize]
    }

    /// Its entry in a compute stage's bind-group layout.
    pub fn layout_entry(self) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding: self.index(),
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage {
                    read_only: self.info().access == Access::Read,
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }
    }
}
