//! `const fn` arithmetic on small fixed-size little-endian word arrays.
//!
//! Everything that is *derived* from a modulus (R mod p, R² mod p, μ, Barrett's m, limbs of any
//! width) is computed with these helpers, at compile time for the typed constants in
//! [`crate::fields`] and at run time for [`crate::limb_constants()`]. They favour obviousness over
//! speed: derivation runs once.

/// Words of a canonical element: enough for moduli below 2³⁸³ (BLS12-381 and BLS12-377 need 6).
pub const WORDS: usize = 6;

/// A canonical (fully reduced, *not* Montgomery) field element or modulus, little-endian 64-bit words.
pub type Canonical = [u64; WORDS];

/// Parses a big-endian hex string (optional `0x`, `_` separators allowed) into little-endian words.
/// Panics (at compile time when used in a `const`) on a bad digit or an oversized number.
pub const fn parse_hex(s: &str) -> Canonical {
    let bytes = s.as_bytes();
    let mut start = 0;
    if bytes.len() >= 2 && bytes[0] == b'0' && (bytes[1] == b'x' || bytes[1] == b'X') {
        start = 2;
    }
    let mut out = [0u64; WORDS];
    let mut nibble = 0usize; // nibbles consumed from the right
    let mut i = bytes.len();
    while i > start {
        i -= 1;
        let c = bytes[i];
        if c == b'_' {
            continue;
        }
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => panic!("parse_hex: not a hex digit"),
        } as u64;
        let word = nibble / 16;
        if word >= WORDS {
            assert!(d == 0, "parse_hex: number does not fit in WORDS words");
        } else {
            out[word] |= d << ((nibble % 16) * 4);
        }
        nibble += 1;
    }
    out
}

/// Number of significant bits.
pub const fn bit_len(x: &Canonical) -> u32 {
    let mut i = WORDS;
    while i > 0 {
        i -= 1;
        if x[i] != 0 {
            return 64 * i as u32 + (64 - x[i].leading_zeros());
        }
    }
    0
}

/// Bit `i` of `x` (0 when `i` is past the end).
pub const fn bit(x: &Canonical, i: u32) -> bool {
    let w = (i / 64) as usize;
    w < WORDS && (x[w] >> (i % 64)) & 1 == 1
}

/// `a >= b`.
pub const fn geq(a: &Canonical, b: &Canonical) -> bool {
    let mut i = WORDS;
    while i > 0 {
        i -= 1;
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

/// `a - b` modulo 2^(64·WORDS).
pub const fn sub(a: &Canonical, b: &Canonical) -> Canonical {
    let mut out = [0u64; WORDS];
    let mut borrow = 0u64;
    let mut i = 0;
    while i < WORDS {
        let (d, b1) = a[i].overflowing_sub(b[i]);
        let (d, b2) = d.overflowing_sub(borrow);
        out[i] = d;
        borrow = (b1 | b2) as u64;
        i += 1;
    }
    out
}

/// `2x mod p` for `x < p`. Works for any `p < 2^(64·WORDS)`: the bit shifted out is kept.
pub const fn double_mod(x: &Canonical, p: &Canonical) -> Canonical {
    let mut out = [0u64; WORDS];
    let mut carry = 0u64;
    let mut i = 0;
    while i < WORDS {
        out[i] = (x[i] << 1) | carry;
        carry = x[i] >> 63;
        i += 1;
    }
    if carry == 1 || geq(&out, p) {
        sub(&out, p)
    } else {
        out
    }
}

/// `2^e mod p` by repeated doubling (p odd, p > 1).
pub const fn pow2_mod(e: u32, p: &Canonical) -> Canonical {
    let mut x = [0u64; WORDS];
    x[0] = 1;
    let mut i = 0;
    while i < e {
        x = double_mod(&x, p);
        i += 1;
    }
    x
}

/// `p⁻¹ mod 2⁶⁴` for odd `p0` (the lowest word of p), by Newton–Hensel lifting:
/// if `p·x ≡ 1 (mod 2^k)` then `x·(2 − p·x)` is the inverse mod 2^(2k). `x = p0` is right mod 2³.
pub const fn inv_mod_2_64(p0: u64) -> u64 {
    assert!(p0 & 1 == 1, "the modulus must be odd");
    let mut x = p0; // correct to 3 bits
    let mut i = 0;
    while i < 5 {
        // 3 → 6 → 12 → 24 → 48 → 96 bits
        x = x.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// `floor(2^e / p)` for `p > 0`, by schoolbook binary long division. The quotient must fit
/// `WORDS + 1` words (Barrett's m = floor(4^n / p) has n + 1 ≤ 385 bits).
pub const fn floor_pow2_div(e: u32, p: &Canonical) -> [u64; WORDS + 1] {
    let mut q = [0u64; WORDS + 1];
    let mut r = [0u64; WORDS]; // remainder, always < p
    let mut i = e as i64;
    while i >= 0 {
        // r = 2r + (bit i of 2^e), which is 1 only at i == e
        let mut top = 0u64;
        let mut k = 0;
        while k < WORDS {
            let next = r[k] >> 63;
            r[k] = (r[k] << 1) | top;
            top = next;
            k += 1;
        }
        if i == e as i64 {
            r[0] |= 1;
        }
        if top == 1 || geq(&r, p) {
            r = sub(&r, p);
            let bit_index = i as usize;
            assert!(
                bit_index / 64 < WORDS + 1,
                "floor_pow2_div: quotient too large"
            );
            q[bit_index / 64] |= 1 << (bit_index % 64);
        }
        i -= 1;
    }
    q
}

/// Bits `[i·w, (i+1)·w)` of `x` as a u64 (`w ≤ 64`).
pub const fn limb_of(x: &[u64], i: usize, w: u32) -> u64 {
    let start = i as u64 * w as u64;
    let word = (start / 64) as usize;
    let shift = (start % 64) as u32;
    let mut v = 0u64;
    if word < x.len() {
        v = x[word] >> shift;
        if shift != 0 && word + 1 < x.len() {
            v |= x[word + 1] << (64 - shift);
        }
    }
    if w == 64 { v } else { v & ((1u64 << w) - 1) }
}

/// Splits `x` into `N` limbs of `w` bits; the caller makes sure `N·w` covers the bits of `x`.
pub const fn to_limbs<const N: usize>(x: &Canonical, w: u32) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = limb_of(x, i, w);
        i += 1;
    }
    out
}

/// Joins `N` limbs of `w` bits back into words. Limbs must be below 2^w and the value below
/// 2^(64·WORDS); bits beyond that are dropped.
pub const fn from_limbs<const N: usize>(limbs: &[u64; N], w: u32) -> Canonical {
    let mut out = [0u64; WORDS];
    let mut i = 0;
    while i < N {
        let start = i as u64 * w as u64;
        let word = (start / 64) as usize;
        let shift = (start % 64) as u32;
        if word < WORDS {
            out[word] |= limbs[i] << shift;
            if shift != 0 && word + 1 < WORDS && shift + w > 64 {
                out[word + 1] |= limbs[i] >> (64 - shift);
            }
        }
        i += 1;
    }
    out
}

/// The first `N` words of `x` (for the 64-bit representations).
pub const fn truncate<const N: usize>(x: &Canonical) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = x[i];
        i += 1;
    }
    out
}

/// `x` widened to a canonical array.
pub const fn widen<const N: usize>(x: &[u64; N]) -> Canonical {
    let mut out = [0u64; WORDS];
    let mut i = 0;
    while i < N {
        out[i] = x[i];
        i += 1;
    }
    out
}
