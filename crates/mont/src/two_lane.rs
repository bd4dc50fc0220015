//! A tiny two-lane vector abstraction: exactly the operations Bos–Montgomery's SIMD algorithm needs.
//!
//! Each lane multiplies two 32-bit numbers into 64 bits and adds two more 64-bit numbers, then the
//! result is split into its low and high 32-bit halves. Three implementations share the algorithm
//! in [`crate::bos`]:
//! - [`Portable`]: two plain u64s, the non-SIMD counterpart, runs everywhere;
//! - [`Sse2`] (x86-64): `pmuludq` multiplies the low 32 bits of both 64-bit lanes at once;
//! - `Simd128` (wasm32 with `simd128`): `i64x2.extmul_low_i32x4_u`.

/// Two 64-bit accumulator lanes plus a packed pair of 32-bit multiplicands.
pub trait TwoLane: Copy {
    /// Two u32 multiplicands, one per lane, in whatever layout the multiply wants.
    type Pair: Copy;
    /// Packs `(lane0, lane1)` multiplicands.
    fn pair(lane0: u32, lane1: u32) -> Self::Pair;
    /// Two 64-bit lanes.
    fn new(lane0: u64, lane1: u64) -> Self;
    /// Lane-wise `x·y + a + b`. Cannot overflow when `a, b < 2³²`: (2³²−1)² + 2(2³²−1) = 2⁶⁴ − 1.
    fn mul_add_add(x: Self::Pair, y: Self::Pair, a: Self, b: Self) -> Self;
    /// Lane-wise `x·y + a`, wrapping (the caller bounds the sums).
    #[inline(always)]
    fn mul_add(x: Self::Pair, y: Self::Pair, a: Self) -> Self {
        Self::mul_add_add(x, y, a, Self::new(0, 0))
    }
    /// Lane-wise `v >> 32`.
    fn high(self) -> Self;
    /// Lane-wise `v & (2³² − 1)`.
    fn low(self) -> Self;
    /// Both lanes, lane 0 first.
    fn lanes(self) -> [u64; 2];
}

// ANCHOR: two_lane_portable
/// Two lanes as two u64s: the same arithmetic, one lane after the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Portable([u64; 2]);

impl TwoLane for Portable {
    type Pair = [u32; 2];
    #[inline(always)]
    fn pair(lane0: u32, lane1: u32) -> [u32; 2] {
        [lane0, lane1]
    }
    #[inline(always)]
    fn new(lane0: u64, lane1: u64) -> Self {
        Portable([lane0, lane1])
    }
    #[inline(always)]
    fn mul_add_add(x: [u32; 2], y: [u32; 2], a: Self, b: Self) -> Self {
        let lane = |k: usize| x[k] as u64 * y[k] as u64 + a.0[k] + b.0[k];
        Portable([lane(0), lane(1)])
    }
    #[inline(always)]
    fn high(self) -> Self {
        Portable([self.0[0] >> 32, self.0[1] >> 32])
    }
    #[inline(always)]
    fn low(self) -> Self {
        Portable([self.0[0] & 0xffff_ffff, self.0[1] & 0xffff_ffff])
    }
    #[inline(always)]
    fn lanes(self) -> [u64; 2] {
        self.0
    }
}
// ANCHOR_END: two_lane_portable

#[cfg(target_arch = "x86_64")]
pub use sse2::Sse2;

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::TwoLane;
    use core::arch::x86_64::*;

    /// Two lanes in an SSE2 register. SSE2 is part of the x86-64 baseline, so no runtime check.
    #[derive(Clone, Copy, Debug)]
    pub struct Sse2(__m128i);

    impl TwoLane for Sse2 {
        /// The multiplicands sit in the low halves of the two 64-bit lanes, where `pmuludq` reads them.
        type Pair = __m128i;
        #[inline(always)]
        fn pair(lane0: u32, lane1: u32) -> __m128i {
            // SAFETY: SSE2 is always available on x86-64.
            unsafe { _mm_set_epi64x(lane1 as i64, lane0 as i64) }
        }
        #[inline(always)]
        fn new(lane0: u64, lane1: u64) -> Self {
            // SAFETY: as above.
            Sse2(unsafe { _mm_set_epi64x(lane1 as i64, lane0 as i64) })
        }
        #[inline(always)]
        fn mul_add_add(x: __m128i, y: __m128i, a: Self, b: Self) -> Self {
            // SAFETY: as above.
            Sse2(unsafe { _mm_add_epi64(_mm_add_epi64(_mm_mul_epu32(x, y), a.0), b.0) })
        }
        #[inline(always)]
        fn high(self) -> Self {
            // SAFETY: as above.
            Sse2(unsafe { _mm_srli_epi64::<32>(self.0) })
        }
        #[inline(always)]
        fn low(self) -> Self {
            // SAFETY: as above.
            Sse2(unsafe { _mm_and_si128(self.0, _mm_set1_epi64x(0xffff_ffff)) })
        }
        #[inline(always)]
        fn lanes(self) -> [u64; 2] {
            let mut out = [0u64; 2];
            // SAFETY: `out` is 16 writable bytes; storeu has no alignment requirement.
            unsafe { _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, self.0) };
            out
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub use simd128::Simd128;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::TwoLane;
    use core::arch::wasm32::*;

    // ANCHOR: two_lane_simd128
    /// Two lanes in a WebAssembly `v128`.
    #[derive(Clone, Copy, Debug)]
    pub struct Simd128(v128);

    impl TwoLane for Simd128 {
        /// Multiplicands in the two lowest 32-bit lanes, which `extmul_low` widens and multiplies.
        type Pair = v128;
        #[inline(always)]
        fn pair(lane0: u32, lane1: u32) -> v128 {
            u32x4(lane0, lane1, 0, 0)
        }
        #[inline(always)]
        fn new(lane0: u64, lane1: u64) -> Self {
            Simd128(u64x2(lane0, lane1))
        }
        #[inline(always)]
        fn mul_add_add(x: v128, y: v128, a: Self, b: Self) -> Self {
            Simd128(i64x2_add(i64x2_add(u64x2_extmul_low_u32x4(x, y), a.0), b.0))
        }
        #[inline(always)]
        fn high(self) -> Self {
            Simd128(u64x2_shr(self.0, 32))
        }
        #[inline(always)]
        fn low(self) -> Self {
            Simd128(v128_and(self.0, u64x2_splat(0xffff_ffff)))
        }
        #[inline(always)]
        fn lanes(self) -> [u64; 2] {
            [
                u64x2_extract_lane::<0>(self.0),
                u64x2_extract_lane::<1>(self.0),
            ]
        }
    }
    // ANCHOR_END: two_lane_simd128
}

/// The lanes the product kernels use in this build: SIMD where it is compiled in, else the
/// portable pair.
#[cfg(target_arch = "x86_64")]
pub type BestLanes = Sse2;
/// The lanes the product kernels use in this build: SIMD where it is compiled in, else the
/// portable pair.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub type BestLanes = Simd128;
/// The lanes the product kernels use in this build: SIMD where it is compiled in, else the
/// portable pair.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
pub type BestLanes = Portable;

/// The SIMD implementation compiled into this build, if any: `"sse2"`, `"simd128"` or `None`.
pub const fn simd_backend() -> Option<&'static str> {
    if cfg!(target_arch = "x86_64") {
        Some("sse2")
    } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        Some("simd128")
    } else {
        None
    }
}
