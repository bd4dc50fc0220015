//! How a field element is stored and multiplied: the backends of [`crate::field::Fp`].
//!
//! One element type, [`Fp<P, N>`](crate::field::Fp), serves every representation; its config `P`
//! names the backend (as arkworks' `Fp<P: FpConfig<N>, N>` carries its `MontBackend`). A backend
//! says what a limb is and how limbs are added, subtracted and multiplied; everything else
//! (constants, conversions, inversion, `Debug`, equality) is written once in [`crate::field`]:
//!
//! | backend | limbs | product | where it is fast |
//! |---|---|---|---|
//! | [`Mont64`] | `N` words of 64 bits | gnark's no-carry CIOS, else CIOS | natively (`u64 × u64 → u128`) |
//! | [`Radix30`] | `N` limbs of 30 bits, stored as u32 | Mitscha-Baude's reduced radix | WebAssembly (no 128-bit product) |
//! | [`Radix51`] | `N` limbs of 51 bits | Emmart's floating-point FMA product | WebAssembly with relaxed SIMD |
//!
//! Arithmetic runs on limbs widened to u64 (`[u64; N]`), which is what `fastmsm-mont`'s products
//! take; widening a u32 limb costs nothing in WebAssembly (`i64.load32_u`).

use core::fmt;

use fastmsm_mont::MontParams;
use fastmsm_mont::cios::cios;
use fastmsm_mont::emmart::{
    self, BestLanes, EmmartParams, emmart_mul_interleaved, emmart_mul_interleaved_lazy,
    emmart_mul_paired,
};
use fastmsm_mont::emmart_lanes::{BestPair, emmart_mul_pair, emmart_mul_pair_lazy};
use fastmsm_mont::no_carry::{NoCarryNotApplicable, NoCarryParams, cios_no_carry};
use fastmsm_mont::primitives::{
    adc, add_mod_radix, sbb, sub_lazy_radix, sub_mod_radix, subtract_p_if_needed,
};
use fastmsm_mont::reduced_radix_lanes::mont_mul_lanes_reduced;
use fastmsm_mont::two_lane::BestLanes as BestIntLanes;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The integer a limb is stored in: u32 or u64 (sealed: [`crate::field`]'s `const` conversions
/// rely on there being exactly these two).
pub trait Limb: sealed::Sealed + Copy + Eq + Send + Sync + 'static {
    /// Bits of the stored integer.
    const BITS: u32;
}
impl Limb for u32 {
    const BITS: u32 = 32;
}
impl Limb for u64 {
    const BITS: u32 = 64;
}

/// A representation of field elements: limb type and width, and the arithmetic on `N` limbs.
///
/// Every operation takes and returns limbs widened to u64, each below 2^[`Backend::LIMB_BITS`],
/// values below p unless a method says otherwise.
pub trait Backend: 'static + Copy + Eq + fmt::Debug + Send + Sync {
    /// How a limb is stored.
    type Limb: Limb;
    /// Bits per limb: R = 2^(LIMB_BITS·N).
    const LIMB_BITS: u32;
    /// Names the representation in an element's `Debug` form (`bn254-fq/r30(0x3)`).
    const TAG: &'static str;
    /// The product's constants beyond [`MontParams`] (the config's `PRODUCT`).
    type Product<const N: usize>: 'static + Send + Sync;

    /// Montgomery product `a·b·R⁻¹ mod p`, fully reduced.
    fn mul<const N: usize>(
        a: &[u64; N],
        b: &[u64; N],
        m: &MontParams<N>,
        k: &Self::Product<N>,
    ) -> [u64; N];
    /// `a + b mod p`.
    fn add<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N];
    /// `a − b mod p`.
    fn sub<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N];

    /// Whether `PrimeField::mul_many` goes through [`Backend::mul_many`] on arrays of the limbs;
    /// otherwise it is `K` ordinary products of the elements, with no copies of their limbs.
    const SIDE_BY_SIDE: bool = true;

    /// `K` independent products (`PrimeField::mul_many`); by default one after another.
    #[inline(always)]
    fn mul_many<const N: usize, const K: usize>(
        a: [&[u64; N]; K],
        b: [&[u64; N]; K],
        m: &MontParams<N>,
        k: &Self::Product<N>,
    ) -> [[u64; N]; K] {
        core::array::from_fn(|i| Self::mul(a[i], b[i], m, k))
    }
    /// `K` independent products, possibly left below 2p (`PrimeField::mul_many_lazy`); by
    /// default fully reduced.
    #[inline(always)]
    fn mul_many_lazy<const N: usize, const K: usize>(
        a: [&[u64; N]; K],
        b: [&[u64; N]; K],
        m: &MontParams<N>,
        k: &Self::Product<N>,
    ) -> [[u64; N]; K] {
        Self::mul_many(a, b, m, k)
    }
    /// `a − b`, possibly left below 2p (`PrimeField::sub_lazy`); by default fully reduced.
    #[inline(always)]
    fn sub_lazy<const N: usize>(
        a: &[u64; N],
        b: &[u64; N],
        m: &MontParams<N>,
        _k: &Self::Product<N>,
    ) -> [u64; N] {
        Self::sub(a, b, &m.p)
    }
}

/// 64-bit Montgomery words, `u64 × u64 → u128` products: the native representation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mont64;

// Word loops use index notation (s[j], p[j]) like the algorithms in fastmsm-mont.
#[allow(clippy::needless_range_loop)]
impl Backend for Mont64 {
    type Limb = u64;
    const LIMB_BITS: u32 = 64;
    const TAG: &'static str = "";
    /// gnark's no-carry constants where the modulus's top word allows them.
    type Product<const N: usize> = Result<NoCarryParams<N>, NoCarryNotApplicable>;

    /// gnark's no-carry CIOS when the modulus allows it (all six fields of the book), CIOS
    /// otherwise; the choice is made on constants, so the branch folds away.
    #[inline(always)]
    fn mul<const N: usize>(
        a: &[u64; N],
        b: &[u64; N],
        m: &MontParams<N>,
        k: &Self::Product<N>,
    ) -> [u64; N] {
        match k {
            Ok(k) => cios_no_carry(a, b, k),
            Err(_) => cios(a, b, m),
        }
    }

    /// `a + b < 2p`: add with carry, then subtract p if the sum (with its carry) is ≥ p.
    #[inline(always)]
    fn add<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
        let mut s = [0u64; N];
        let mut c = 0;
        for j in 0..N {
            (s[j], c) = adc(a[j], b[j], c);
        }
        subtract_p_if_needed(&s, c, p)
    }

    /// `a − b`; if it borrows, add p back.
    #[inline(always)]
    fn sub<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
        let mut d = [0u64; N];
        let mut borrow = 0;
        for j in 0..N {
            (d[j], borrow) = sbb(a[j], b[j], borrow);
        }
        if borrow == 1 {
            let mut c = 0;
            for j in 0..N {
                (d[j], c) = adc(d[j], p[j], c);
            }
        }
        d
    }
}

/// 30-bit limbs in u32 (half the memory of u64 words: points and buckets move through the caches
/// twice as fast), Mitscha-Baude's reduced-radix product (ZPrize 2022; `fastmsm_mont::reduced_radix`)
/// with each step's two limb products in two SIMD lanes (`fastmsm_mont::reduced_radix_lanes`):
/// a limb product leaves four bits of headroom, so the Montgomery loop hardly carries. The fast
/// representation in WebAssembly, which has no 64 × 64 → 128-bit multiply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Radix30;

impl Backend for Radix30 {
    type Limb = u32;
    const LIMB_BITS: u32 = fastmsm_mont::reduced_radix_lanes::W;
    const TAG: &'static str = "/r30";
    /// None: the product needs only [`MontParams`].
    type Product<const N: usize> = ();
    /// Its products gain nothing side by side, and copying its u32 limbs into arrays of u64 for
    /// them cost up to half a product (benches/results/field-backends-refactor-h100-host.json).
    const SIDE_BY_SIDE: bool = false;

    #[inline(always)]
    fn mul<const N: usize>(a: &[u64; N], b: &[u64; N], m: &MontParams<N>, _k: &()) -> [u64; N] {
        mont_mul_lanes_reduced::<BestIntLanes, N>(a, b, m)
    }
    #[inline(always)]
    fn add<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
        add_mod_radix(a, b, p, Self::LIMB_BITS)
    }
    #[inline(always)]
    fn sub<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
        sub_mod_radix(a, b, p, Self::LIMB_BITS)
    }
}

/// 51-bit limbs multiplied as doubles (Emmart's method, `fastmsm_mont::emmart`): one fused
/// multiply-add gives the high half of a 102-bit limb product, a second its low half, and
/// WebAssembly's `f64x2.relaxed_madd` does two limb pairs at once. The product runs on the lanes
/// of this build ([`BestLanes`]): relaxed SIMD in a wasm32 build with `+relaxed-simd`, two scalar
/// `f64::mul_add` elsewhere (natively a hardware FMA, which is what `cargo test` checks; in a
/// wasm32 build without relaxed SIMD a slow software FMA, so nothing there should use it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Radix51;

impl Backend for Radix51 {
    type Limb = u64;
    const LIMB_BITS: u32 = emmart::LIMB_BITS;
    const TAG: &'static str = "/r51";
    /// Emmart's constants (p as doubles, column biases, whether lazy products are allowed).
    type Product<const N: usize> = EmmartParams<N>;

    #[inline(always)]
    fn mul<const N: usize>(
        a: &[u64; N],
        b: &[u64; N],
        _m: &MontParams<N>,
        k: &EmmartParams<N>,
    ) -> [u64; N] {
        emmart_mul_paired::<BestLanes, N>(a, b, k)
    }
    #[inline(always)]
    fn add<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
        add_mod_radix(a, b, p, Self::LIMB_BITS)
    }
    #[inline(always)]
    fn sub<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
        sub_mod_radix(a, b, p, Self::LIMB_BITS)
    }

    /// The products in lockstep, row by row (`emmart_mul_interleaved`): a single product waits
    /// on its own dependency chain.
    #[inline(always)]
    fn mul_many<const N: usize, const K: usize>(
        a: [&[u64; N]; K],
        b: [&[u64; N]; K],
        _m: &MontParams<N>,
        k: &EmmartParams<N>,
    ) -> [[u64; N]; K] {
        if K == 2 {
            // two products: one in each lane (emmart_lanes), not two interleaved column pairs
            let [x, y] = emmart_mul_pair::<BestPair, N>([a[0], a[1]], [b[0], b[1]], k);
            let mut out = [x; K];
            out[1] = y;
            return out;
        }
        emmart_mul_interleaved::<BestLanes, N, K>(a, b, k)
    }

    /// Below 2p where 4p ≤ 2^(51N) (`emmart_mul_interleaved_lazy`, whose comment has the bound):
    /// the BLS12 base fields and BLS12-377's scalar field, not BN254's.
    #[inline(always)]
    fn mul_many_lazy<const N: usize, const K: usize>(
        a: [&[u64; N]; K],
        b: [&[u64; N]; K],
        _m: &MontParams<N>,
        k: &EmmartParams<N>,
    ) -> [[u64; N]; K] {
        if K == 2 {
            let [x, y] = emmart_mul_pair_lazy::<BestPair, N>([a[0], a[1]], [b[0], b[1]], k);
            let mut out = [x; K];
            out[1] = y;
            return out;
        }
        emmart_mul_interleaved_lazy::<BestLanes, N, K>(a, b, k)
    }

    /// a − b + p, one borrow chain (`sub_lazy_radix`), where lazy products accept operands
    /// below 2p (the same fields as [`Backend::mul_many_lazy`]).
    #[inline(always)]
    fn sub_lazy<const N: usize>(
        a: &[u64; N],
        b: &[u64; N],
        m: &MontParams<N>,
        k: &EmmartParams<N>,
    ) -> [u64; N] {
        if k.lazy {
            sub_lazy_radix(a, b, &m.p, Self::LIMB_BITS)
        } else {
            Self::sub(a, b, &m.p)
        }
    }
}
