//! Field parameters: the modulus is typed once, everything else is derived from it.
//!
//! A [`FieldParams`] holds only the modulus (parsed from one hex string) and its bit length.
//! [`MontParams`] derives, for a representation with `N` limbs of `w` bits, the Montgomery
//! constants: μ = −p⁻¹ mod 2^w, R mod p and R² mod p with R = 2^(w·N). These are `const fn`s, so
//! the typed tables in [`crate::fields`] are computed by the compiler; the same functions run at
//! run time for [`crate::limb_constants()`].

use crate::words::{self, Canonical, WORDS};

/// A prime field, described by its modulus alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldParams {
    /// Stable name, e.g. `"bn254-fq"`.
    pub name: &'static str,
    /// The modulus p, little-endian 64-bit words.
    pub modulus: Canonical,
    /// ⌈log₂ p⌉ for p not a power of two: the bit length of p.
    pub bits: u32,
}

impl FieldParams {
    /// The single place a modulus is typed: a big-endian hex string.
    pub const fn from_hex(name: &'static str, hex: &str) -> Self {
        let modulus = words::parse_hex(hex);
        assert!(
            modulus[0] & 1 == 1,
            "Montgomery arithmetic needs an odd modulus"
        );
        let bits = words::bit_len(&modulus);
        assert!(
            bits >= 2 && bits < 64 * WORDS as u32,
            "modulus out of range"
        );
        FieldParams {
            name,
            modulus,
            bits,
        }
    }

    // ANCHOR: mu
    /// μ = −p⁻¹ mod 2^w for `1 ≤ w ≤ 64`.
    ///
    /// Only the lowest limb of p matters: p ≡ p₀ (mod 2^w), so p⁻¹ mod 2^w is p₀⁻¹ mod 2^w. (Some
    /// write-ups describe μ as "the most significant limb of p⁻¹ mod R"; that is not what any of the
    /// algorithms use.)
    pub const fn mu(&self, w: u32) -> u64 {
        let neg_inv = 0u64.wrapping_sub(words::inv_mod_2_64(self.modulus[0]));
        neg_inv & mask(w)
    }
    // ANCHOR_END: mu

    /// +p⁻¹ mod 2^w, the sign convention of Bos–Montgomery's two-way SIMD algorithm.
    pub const fn inv(&self, w: u32) -> u64 {
        words::inv_mod_2_64(self.modulus[0]) & mask(w)
    }

    /// 2^e mod p.
    pub const fn pow2_mod(&self, e: u32) -> Canonical {
        words::pow2_mod(e, &self.modulus)
    }

    /// Barrett's constant m = ⌊4^n / p⌋ with n = bit length of p (n + 1 bits, top bit set).
    pub const fn barrett_m(&self) -> [u64; WORDS + 1] {
        words::floor_pow2_div(2 * self.bits, &self.modulus)
    }

    /// Is `x` a canonical element (x < p)?
    pub const fn is_reduced(&self, x: &Canonical) -> bool {
        !words::geq(x, &self.modulus)
    }
}

/// All-ones mask of `w` bits (`w ≤ 64`).
pub const fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// ⌈bits / w⌉: the fewest `w`-bit limbs that hold p. Enough when the algorithm keeps an extra
/// top word (CIOS, FIOS, SOS) or needs only R > p (Bos–Montgomery, Emmart).
pub const fn limbs_covering(bits: u32, w: u32) -> usize {
    bits.div_ceil(w) as usize
}

/// ⌊bits / w⌋ + 1: the fewest `w`-bit limbs with w·n > bits, so that R = 2^(w·n) > 2p. The
/// reduced-radix algorithms keep no extra top word and rely on this (the same observation as the
/// gnark "no-carry" condition, here paid for with limb count instead of checked on p).
pub const fn limbs_with_spare_bit(bits: u32, w: u32) -> usize {
    (bits / w + 1) as usize
}

/// Montgomery constants for one representation: `N` limbs of `width` bits, each stored in a u64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MontParams<const N: usize> {
    /// Bits per limb, w.
    pub width: u32,
    /// p in `w`-bit limbs.
    pub p: [u64; N],
    /// μ = −p⁻¹ mod 2^w.
    pub mu: u64,
    /// R mod p = 2^(w·N) mod p: the Montgomery form of 1.
    pub r: [u64; N],
    /// R² mod p: multiplying by it converts into Montgomery form.
    pub r2: [u64; N],
    /// The plain integer 1 in limbs: multiplying by it converts out of Montgomery form.
    pub one: [u64; N],
}

impl<const N: usize> MontParams<N> {
    /// Derives every constant from the modulus.
    pub const fn new(field: &FieldParams, width: u32) -> Self {
        assert!(width >= 2 && width <= 64, "limb width out of range");
        assert!(
            N as u64 * width as u64 >= field.bits as u64,
            "too few limbs for the modulus"
        );
        let total = N as u32 * width;
        let r = field.pow2_mod(total);
        let r2 = field.pow2_mod(2 * total);
        let mut one = [0u64; N];
        one[0] = 1;
        MontParams {
            width,
            p: words::to_limbs(&field.modulus, width),
            mu: field.mu(width),
            r: words::to_limbs(&r, width),
            r2: words::to_limbs(&r2, width),
            one,
        }
    }

    /// Splits a canonical element into this representation's limbs (no Montgomery conversion).
    #[inline]
    pub const fn split(&self, x: &Canonical) -> [u64; N] {
        words::to_limbs(x, self.width)
    }

    /// Joins limbs back into a canonical array (no Montgomery conversion).
    #[inline]
    pub const fn join(&self, x: &[u64; N]) -> Canonical {
        words::from_limbs(x, self.width)
    }

    /// R = 2^(w·N) as a bit count: log₂ R.
    pub const fn log2_r(&self) -> u32 {
        N as u32 * self.width
    }
}

/// Narrows u64 limbs to u32 (every limb must be below 2³²). For the u32-only GPU twins.
pub const fn narrow<const N: usize>(x: &[u64; N]) -> [u32; N] {
    let mut out = [0u32; N];
    let mut i = 0;
    while i < N {
        assert!(x[i] <= u32::MAX as u64, "limb does not fit a u32");
        out[i] = x[i] as u32;
        i += 1;
    }
    out
}

/// Widens u32 limbs to u64.
pub const fn widen32<const N: usize>(x: &[u32; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = x[i] as u64;
        i += 1;
    }
    out
}
