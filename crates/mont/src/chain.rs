//! The chained benchmark loop, shared by tests, criterion, the wasm widget and the browser runner.
//!
//! `x ← x·y`, `iters` times: every multiplication depends on the previous one, so the loop
//! measures latency, not throughput, and the compiler cannot hoist or vectorise across steps.
//! The result, `x·y^iters mod p`, is returned in canonical form so any reference can check it.

use crate::error::MontError;
use crate::fields::{self, Field};
use crate::params::MontParams;
use crate::variant::Variant;
use crate::words::Canonical;
use crate::{barrett, bos, emmart, gpu_twin, two_lane};

/// One variant over one field: how to enter its representation, multiply in it, and leave it.
pub trait Kernel {
    /// An element in this representation.
    type Elem: Copy;
    /// Canonical → representation (into Montgomery form for the Montgomery variants).
    fn encode(&self, x: &Canonical) -> Self::Elem;
    /// The product, in the representation.
    fn mul(&self, a: &Self::Elem, b: &Self::Elem) -> Self::Elem;
    /// Representation → canonical.
    fn decode(&self, a: &Self::Elem) -> Canonical;
    /// Canonical → limbs, *without* conversion.
    fn split(&self, x: &Canonical) -> Self::Elem;
    /// Limbs → canonical, *without* conversion.
    fn join(&self, a: &Self::Elem) -> Canonical;
    /// log₂ R of the Montgomery representation; `None` for Barrett (ordinary form).
    fn r_bits(&self) -> Option<u32>;
}

// ANCHOR: chain_loop
/// Runs the dependent chain `x ← x·y`, `iters` times, in the kernel's representation.
#[inline(never)]
pub fn run_chain<K: Kernel>(kernel: &K, x: &Canonical, y: &Canonical, iters: u64) -> Canonical {
    let mut acc = kernel.encode(x);
    let y = kernel.encode(y);
    for _ in 0..iters {
        // y is read afresh each step, as in real use where the operand changes: a loop-invariant
        // y lets the compiler move y's share of the work out of the loop (it widened y's limbs
        // there and turned the lanes' 32×32 multiply into a 64×64 one, which V8 emulates).
        acc = kernel.mul(&acc, core::hint::black_box(&y));
    }
    kernel.decode(&acc)
}
// ANCHOR_END: chain_loop

macro_rules! mont_kernel {
    ($(#[$doc:meta])* $name:ident, $mul:path) => {
        $(#[$doc])*
        pub struct $name<const N: usize>(pub &'static MontParams<N>);
        impl<const N: usize> Kernel for $name<N> {
            type Elem = [u64; N];
            #[inline(always)]
            fn encode(&self, x: &Canonical) -> [u64; N] {
                $mul(&self.0.split(x), &self.0.r2, self.0)
            }
            #[inline(always)]
            fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
                $mul(a, b, self.0)
            }
            #[inline(always)]
            fn decode(&self, a: &[u64; N]) -> Canonical {
                self.0.join(&$mul(a, &self.0.one, self.0))
            }
            fn split(&self, x: &Canonical) -> [u64; N] {
                self.0.split(x)
            }
            fn join(&self, a: &[u64; N]) -> Canonical {
                self.0.join(a)
            }
            fn r_bits(&self) -> Option<u32> {
                Some(self.0.log2_r())
            }
        }
    };
}

mont_kernel!(
    /// [`crate::cios::cios`].
    CiosKernel, crate::cios::cios
);
mont_kernel!(
    /// [`crate::fios::fios`].
    FiosKernel, crate::fios::fios
);
mont_kernel!(
    /// [`crate::sos::sos`].
    SosKernel, crate::sos::sos
);
mont_kernel!(
    /// [`crate::fips_wide::fips_wide`].
    FipsWideKernel, crate::fips_wide::fips_wide
);

/// [`crate::no_carry::cios_no_carry`].
pub struct NoCarryKernel<const N: usize>(pub crate::no_carry::NoCarryParams<N>);
impl<const N: usize> Kernel for NoCarryKernel<N> {
    type Elem = [u64; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u64; N] {
        let k = self.0.params();
        crate::no_carry::cios_no_carry(&k.split(x), &k.r2, &self.0)
    }
    #[inline(always)]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        crate::no_carry::cios_no_carry(a, b, &self.0)
    }
    #[inline(always)]
    fn decode(&self, a: &[u64; N]) -> Canonical {
        let k = self.0.params();
        k.join(&crate::no_carry::cios_no_carry(a, &k.one, &self.0))
    }
    fn split(&self, x: &Canonical) -> [u64; N] {
        self.0.params().split(x)
    }
    fn join(&self, a: &[u64; N]) -> Canonical {
        self.0.params().join(a)
    }
    fn r_bits(&self) -> Option<u32> {
        Some(self.0.params().log2_r())
    }
}

/// [`crate::reduced_radix::mont_mul_reduced_radix`] with `W`-bit limbs.
pub struct ReducedRadixKernel<const W: u32, const N: usize>(pub &'static MontParams<N>);
impl<const W: u32, const N: usize> Kernel for ReducedRadixKernel<W, N> {
    type Elem = [u64; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u64; N] {
        crate::reduced_radix::mont_mul_reduced_radix::<W, N>(&self.0.split(x), &self.0.r2, self.0)
    }
    #[inline(always)]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        crate::reduced_radix::mont_mul_reduced_radix::<W, N>(a, b, self.0)
    }
    #[inline(always)]
    fn decode(&self, a: &[u64; N]) -> Canonical {
        self.0
            .join(&crate::reduced_radix::mont_mul_reduced_radix::<W, N>(
                a,
                &self.0.one,
                self.0,
            ))
    }
    fn split(&self, x: &Canonical) -> [u64; N] {
        self.0.split(x)
    }
    fn join(&self, a: &[u64; N]) -> Canonical {
        self.0.join(a)
    }
    fn r_bits(&self) -> Option<u32> {
        Some(self.0.log2_r())
    }
}

/// [`crate::no_carry::cios_no_carry_lazy`]: results below 2p; leaving the representation and
/// reading limbs as a canonical value subtract p once if needed.
pub struct LazyNoCarryKernel<const N: usize>(pub crate::no_carry::LazyNoCarryParams<N>);
impl<const N: usize> LazyNoCarryKernel<N> {
    fn reduce(&self, a: &[u64; N]) -> Canonical {
        let k = self.0.params();
        k.join(&crate::primitives::subtract_p_if_needed(a, 0, &k.p))
    }
}
impl<const N: usize> Kernel for LazyNoCarryKernel<N> {
    type Elem = [u64; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u64; N] {
        crate::no_carry::cios_no_carry_lazy(&self.0.params().split(x), &self.0.params().r2, &self.0)
    }
    #[inline(always)]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        crate::no_carry::cios_no_carry_lazy(a, b, &self.0)
    }
    #[inline(always)]
    fn decode(&self, a: &[u64; N]) -> Canonical {
        self.reduce(&crate::no_carry::cios_no_carry_lazy(
            a,
            &self.0.params().one,
            &self.0,
        ))
    }
    fn split(&self, x: &Canonical) -> [u64; N] {
        self.0.params().split(x)
    }
    fn join(&self, a: &[u64; N]) -> Canonical {
        self.reduce(a)
    }
    fn r_bits(&self) -> Option<u32> {
        Some(self.0.params().log2_r())
    }
}

/// A lazy 30-bit product (operands and results below 2p): leaving the representation and
/// reading limbs as a canonical value subtract p once if needed.
macro_rules! lazy_kernel {
    ($(#[$doc:meta])* $name:ident, $mul:path) => {
        $(#[$doc])*
        pub struct $name<const N: usize>(pub &'static MontParams<N>);
        impl<const N: usize> $name<N> {
            fn reduce(&self, a: &[u64; N]) -> Canonical {
                let w = self.0.width;
                self.0.join(&crate::primitives::subtract_p_if_needed_radix(a, 0, &self.0.p, w))
            }
        }
        impl<const N: usize> Kernel for $name<N> {
            type Elem = [u64; N];
            #[inline(always)]
            fn encode(&self, x: &Canonical) -> [u64; N] {
                $mul(&self.0.split(x), &self.0.r2, self.0)
            }
            #[inline(always)]
            fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
                $mul(a, b, self.0)
            }
            #[inline(always)]
            fn decode(&self, a: &[u64; N]) -> Canonical {
                self.reduce(&$mul(a, &self.0.one, self.0))
            }
            fn split(&self, x: &Canonical) -> [u64; N] {
                self.0.split(x)
            }
            fn join(&self, a: &[u64; N]) -> Canonical {
                self.reduce(a)
            }
            fn r_bits(&self) -> Option<u32> {
                Some(self.0.log2_r())
            }
        }
    };
}

lazy_kernel!(
    /// [`crate::reduced_radix::mont_mul_reduced_radix_lazy`], 30-bit limbs.
    ReducedRadixLazyKernel,
    crate::reduced_radix::mont_mul_reduced_radix_lazy::<30, N>
);
lazy_kernel!(
    /// [`crate::reduced_radix_lanes::mont_mul_lanes`] on [`two_lane::BestLanes`].
    LanesKernel,
    crate::reduced_radix_lanes::mont_mul_lanes::<two_lane::BestLanes, N>
);

/// [`crate::bos::bos_mul`] on lanes `L`.
pub struct BosKernel<L, const N: usize>(
    pub &'static bos::BosParams<N>,
    core::marker::PhantomData<L>,
);
impl<L: two_lane::TwoLane, const N: usize> BosKernel<L, N> {
    /// The kernel for these constants.
    pub const fn new(k: &'static bos::BosParams<N>) -> Self {
        BosKernel(k, core::marker::PhantomData)
    }
}
impl<L: two_lane::TwoLane, const N: usize> Kernel for BosKernel<L, N> {
    type Elem = [u32; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u32; N] {
        bos::to_mont::<L, N>(x, self.0)
    }
    #[inline(always)]
    fn mul(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        bos::bos_mul::<L, N>(a, b, self.0)
    }
    #[inline(always)]
    fn decode(&self, a: &[u32; N]) -> Canonical {
        bos::from_mont::<L, N>(a, self.0)
    }
    fn split(&self, x: &Canonical) -> [u32; N] {
        crate::params::narrow(&self.0.mont.split(x))
    }
    fn join(&self, a: &[u32; N]) -> Canonical {
        self.0.mont.join(&crate::params::widen32(a))
    }
    fn r_bits(&self) -> Option<u32> {
        Some(self.0.mont.log2_r())
    }
}

/// [`crate::emmart::emmart_mul_paired`] on [`crate::emmart::BestLanes`].
pub struct EmmartKernel<const N: usize>(pub &'static emmart::EmmartParams<N>);
impl<const N: usize> Kernel for EmmartKernel<N> {
    type Elem = [u64; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u64; N] {
        emmart::to_mont(x, self.0)
    }
    #[inline(always)]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        emmart::emmart_mul_paired::<emmart::BestLanes, N>(a, b, self.0)
    }
    #[inline(always)]
    fn decode(&self, a: &[u64; N]) -> Canonical {
        emmart::from_mont(a, self.0)
    }
    fn split(&self, x: &Canonical) -> [u64; N] {
        self.0.mont.split(x)
    }
    fn join(&self, a: &[u64; N]) -> Canonical {
        self.0.mont.join(a)
    }
    fn r_bits(&self) -> Option<u32> {
        Some(self.0.mont.log2_r())
    }
}

/// [`crate::gpu_twin::mont_mul_u32_nsafe`] with `W`-bit limbs (12..=15).
pub struct U32NsafeKernel<const W: u32, const N: usize>(pub &'static gpu_twin::MontParams32<N>);
impl<const W: u32, const N: usize> Kernel for U32NsafeKernel<W, N> {
    type Elem = [u32; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u32; N] {
        gpu_twin::to_mont(x, self.0, gpu_twin::mont_mul_u32_nsafe::<W, N>)
    }
    #[inline(always)]
    fn mul(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        gpu_twin::mont_mul_u32_nsafe::<W, N>(a, b, self.0)
    }
    #[inline(always)]
    fn decode(&self, a: &[u32; N]) -> Canonical {
        gpu_twin::from_mont(a, self.0, gpu_twin::mont_mul_u32_nsafe::<W, N>)
    }
    fn split(&self, x: &Canonical) -> [u32; N] {
        crate::params::narrow(&self.0.wide.split(x))
    }
    fn join(&self, a: &[u32; N]) -> Canonical {
        self.0.wide.join(&crate::params::widen32(a))
    }
    fn r_bits(&self) -> Option<u32> {
        Some(self.0.wide.log2_r())
    }
}

/// [`crate::gpu_twin::mont_mul_u32_cios16`].
pub struct U32Cios16Kernel<const N: usize>(pub &'static gpu_twin::MontParams32<N>);
impl<const N: usize> Kernel for U32Cios16Kernel<N> {
    type Elem = [u32; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u32; N] {
        gpu_twin::to_mont(x, self.0, gpu_twin::mont_mul_u32_cios16::<N>)
    }
    #[inline(always)]
    fn mul(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        gpu_twin::mont_mul_u32_cios16(a, b, self.0)
    }
    #[inline(always)]
    fn decode(&self, a: &[u32; N]) -> Canonical {
        gpu_twin::from_mont(a, self.0, gpu_twin::mont_mul_u32_cios16::<N>)
    }
    fn split(&self, x: &Canonical) -> [u32; N] {
        crate::params::narrow(&self.0.wide.split(x))
    }
    fn join(&self, a: &[u32; N]) -> Canonical {
        self.0.wide.join(&crate::params::widen32(a))
    }
    fn r_bits(&self) -> Option<u32> {
        Some(self.0.wide.log2_r())
    }
}

/// [`crate::barrett::barrett_mul`] (vanilla) or [`crate::barrett::barrett_domb_mul`] (`DOMB`).
pub struct BarrettKernel<const DOMB: bool, const N: usize>(pub &'static barrett::BarrettParams<N>);
impl<const DOMB: bool, const N: usize> Kernel for BarrettKernel<DOMB, N> {
    type Elem = [u64; N];
    #[inline(always)]
    fn encode(&self, x: &Canonical) -> [u64; N] {
        crate::words::truncate(x) // Barrett works on ordinary residues
    }
    #[inline(always)]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        if DOMB {
            barrett::barrett_domb_mul(a, b, self.0)
        } else {
            barrett::barrett_mul(a, b, self.0)
        }
    }
    #[inline(always)]
    fn decode(&self, a: &[u64; N]) -> Canonical {
        crate::words::widen(a)
    }
    fn split(&self, x: &Canonical) -> [u64; N] {
        crate::words::truncate(x)
    }
    fn join(&self, a: &[u64; N]) -> Canonical {
        crate::words::widen(a)
    }
    fn r_bits(&self) -> Option<u32> {
        None
    }
}

/// Calls `$body` with `$m` bound to the constants module of `$field`.
macro_rules! with_field {
    ($field:expr, $m:ident => $body:expr) => {
        match $field {
            Field::Bn254Fq => {
                use fields::bn254_fq as $m;
                $body
            }
            Field::Bn254Fr => {
                use fields::bn254_fr as $m;
                $body
            }
            Field::Bls12_377Fq => {
                use fields::bls12_377_fq as $m;
                $body
            }
            Field::Bls12_377Fr => {
                use fields::bls12_377_fr as $m;
                $body
            }
            Field::Bls12_381Fq => {
                use fields::bls12_381_fq as $m;
                $body
            }
            Field::Bls12_381Fr => {
                use fields::bls12_381_fr as $m;
                $body
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
macro_rules! bos_simd_kernel {
    ($m:ident, $k:ident => $body:expr) => {{
        let $k = BosKernel::<two_lane::Sse2, { $m::N32 }>::new(&$m::BOS);
        $body
    }};
}
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
macro_rules! bos_simd_kernel {
    ($m:ident, $k:ident => $body:expr) => {{
        let $k = BosKernel::<two_lane::Simd128, { $m::N32 }>::new(&$m::BOS);
        $body
    }};
}
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
macro_rules! bos_simd_kernel {
    ($m:ident, $k:ident => $body:expr) => {{
        return Err(MontError::Unavailable(Variant::BosSimd));
    }};
}

/// Evaluates `$body` with `$k` bound to the kernel of `$variant` over `$field`, in a function
/// returning `Result<_, MontError>`. Every (variant, field) pair is one monomorphised arm.
macro_rules! with_kernel {
    ($variant:expr, $field:expr, $k:ident => $body:expr) => {
        with_field!($field, m => match $variant {
            Variant::Cios => { let $k = CiosKernel(&m::W64); $body }
            Variant::Fios => { let $k = FiosKernel(&m::W64); $body }
            Variant::Sos => { let $k = SosKernel(&m::W64); $body }
            Variant::FipsWide => { let $k = FipsWideKernel(&m::W64); $body }
            Variant::CiosNoCarryLazy => {
                let $k = LazyNoCarryKernel(m::NO_CARRY_LAZY.map_err(|e| MontError::NoCarry($field, e))?);
                $body
            }
            Variant::CiosNoCarry => {
                let $k = NoCarryKernel(m::NO_CARRY.map_err(|e| MontError::NoCarry($field, e))?);
                $body
            }
            Variant::BosPortable => { let $k = BosKernel::<two_lane::Portable, { m::N32 }>::new(&m::BOS); $body }
            Variant::BosSimd => bos_simd_kernel!(m, $k => $body),
            Variant::EmmartFma => { let $k = EmmartKernel(&m::EMMART); $body }
            Variant::ReducedRadix26 => { let $k = ReducedRadixKernel::<26, { m::N26 }>(&m::R26); $body }
            Variant::ReducedRadix27 => { let $k = ReducedRadixKernel::<27, { m::N27 }>(&m::R27); $body }
            Variant::ReducedRadix28 => { let $k = ReducedRadixKernel::<28, { m::N28 }>(&m::R28); $body }
            Variant::ReducedRadix29 => { let $k = ReducedRadixKernel::<29, { m::N29 }>(&m::R29); $body }
            Variant::ReducedRadix30 => { let $k = ReducedRadixKernel::<30, { m::N30 }>(&m::R30); $body }
            Variant::ReducedRadix30Lazy => { let $k = ReducedRadixLazyKernel::<{ m::N30 }>(&m::R30); $body }
            Variant::ReducedRadix30Lanes => { let $k = LanesKernel::<{ m::N30 }>(&m::R30); $body }
            Variant::U32Limbs12 => { let $k = U32NsafeKernel::<12, { m::N12 }>(&m::G12); $body }
            Variant::U32Limbs13 => { let $k = U32NsafeKernel::<13, { m::N13 }>(&m::G13); $body }
            Variant::U32Limbs14 => { let $k = U32NsafeKernel::<14, { m::N14 }>(&m::G14); $body }
            Variant::U32Limbs15 => { let $k = U32NsafeKernel::<15, { m::N15 }>(&m::G15); $body }
            Variant::U32Limbs16 => { let $k = U32Cios16Kernel(&m::G16); $body }
            Variant::Barrett => { let $k = BarrettKernel::<false, { m::N64 }>(&m::BARRETT); $body }
            Variant::BarrettDomb => { let $k = BarrettKernel::<true, { m::N64 }>(&m::BARRETT); $body }
        })
    };
}

fn check_inputs(field: Field, x: &Canonical, y: &Canonical) -> Result<(), MontError> {
    let fp = field.params();
    if !fp.is_reduced(x) {
        return Err(MontError::NotReduced { field, input: "x" });
    }
    if !fp.is_reduced(y) {
        return Err(MontError::NotReduced { field, input: "y" });
    }
    Ok(())
}

// ANCHOR: chained_mul
/// Runs `iters` dependent multiplications `x ← x·y` with `variant` over `field` and returns
/// `x·y^iters mod p` in canonical form. Conversions into and out of the variant's representation
/// (three multiplications) are included. `x` and `y` must be canonical (below p).
pub fn chained_mul(
    variant: Variant,
    field: Field,
    x: &Canonical,
    y: &Canonical,
    iters: u64,
) -> Result<Canonical, MontError> {
    check_inputs(field, x, y)?;
    if !variant.is_available() {
        return Err(MontError::Unavailable(variant));
    }
    with_kernel!(variant, field, k => Ok(run_chain(&k, x, y, iters)))
}
// ANCHOR_END: chained_mul

/// Whether `variant` runs over `field` in this build: [`MontError::Unavailable`] where it is not
/// compiled in, [`MontError::NoCarry`] where p leaves too little room at the top for it (the
/// lazy no-carry product over BLS12-381's scalar field, whose p is above 2^254).
pub fn applies(variant: Variant, field: Field) -> Result<(), MontError> {
    if !variant.is_available() {
        return Err(MontError::Unavailable(variant));
    }
    with_kernel!(variant, field, _k => Ok(()))
}

/// One product `x·y mod p` with `variant`: the chain with one step.
pub fn mul(
    variant: Variant,
    field: Field,
    x: &Canonical,
    y: &Canonical,
) -> Result<Canonical, MontError> {
    chained_mul(variant, field, x, y, 1)
}

/// The variant's multiplication applied to the limbs of `a` and `b` *as they are*, without
/// conversion: `a·b·R⁻¹ mod p` for the Montgomery variants (R = 2^[`radix_bits`]), `a·b mod p`
/// for Barrett. This is the raw kernel a shader twin is compared against.
pub fn raw_product(
    variant: Variant,
    field: Field,
    a: &Canonical,
    b: &Canonical,
) -> Result<Canonical, MontError> {
    check_inputs(field, a, b)?;
    if !variant.is_available() {
        return Err(MontError::Unavailable(variant));
    }
    with_kernel!(variant, field, k => Ok(k.join(&k.mul(&k.split(a), &k.split(b)))))
}

/// log₂ R of the variant's Montgomery representation over `field`; `None` for Barrett.
pub fn radix_bits(variant: Variant, field: Field) -> Result<Option<u32>, MontError> {
    if !variant.is_available() {
        return Err(MontError::Unavailable(variant));
    }
    with_kernel!(variant, field, k => Ok(k.r_bits()))
}
