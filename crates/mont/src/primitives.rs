//! Word-level building blocks for the 64-bit-limb algorithms.
//!
//! `u64 × u64 → u128` is one instruction on x86-64 and AArch64, but WebAssembly has no such
//! instruction: there each `u128` product below becomes four 32×32 multiplications (or a call to
//! `__multi3`). That asymmetry is why the reduced-radix variants exist.

/// `acc + a·b + carry` split into (low word, high word). Cannot overflow:
/// (2⁶⁴−1) + (2⁶⁴−1)² + (2⁶⁴−1) = 2¹²⁸ − 1.
#[inline(always)]
pub const fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = acc as u128 + (a as u128) * (b as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a + b + carry` split into (sum, carry-out).
#[inline(always)]
pub const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a − b − borrow` split into (difference, borrow-out ∈ {0, 1}).
#[inline(always)]
pub const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, (t >> 127) as u64)
}

/// The final step of every Montgomery variant: given `t + top·2^(64N) < 2p`, return the value
/// reduced below p. `top` is the spill word that CIOS, FIOS and SOS carry.
#[inline(always)]
pub fn subtract_p_if_needed<const N: usize>(t: &[u64; N], top: u64, p: &[u64; N]) -> [u64; N] {
    let mut d = [0u64; N];
    let mut borrow = 0;
    for j in 0..N {
        (d[j], borrow) = sbb(t[j], p[j], borrow);
    }
    // t ≥ p exactly when the subtraction did not borrow past the spill word.
    let (_, borrow) = sbb(top, 0, borrow);
    if borrow == 0 { d } else { *t }
}

/// `a < b` for little-endian limbs.
#[inline(always)]
pub fn less_than<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    for j in (0..N).rev() {
        if a[j] != b[j] {
            return a[j] < b[j];
        }
    }
    false
}

/// For limbs narrower than the word (`w < 64`): given `t + top·2^(w·N) < 2p` in `w`-bit limbs,
/// return the value reduced below p.
#[inline(always)]
pub fn subtract_p_if_needed_radix<const N: usize>(
    t: &[u64; N],
    top: u64,
    p: &[u64; N],
    w: u32,
) -> [u64; N] {
    let m = crate::params::mask(w);
    let mut d = [0u64; N];
    let mut borrow = 0u64;
    for j in 0..N {
        // limbs are far below 2⁶³, so a negative difference shows in the top bit
        let v = t[j].wrapping_sub(p[j]).wrapping_sub(borrow);
        d[j] = v & m;
        borrow = v >> 63;
    }
    if top >= borrow { d } else { *t }
}

/// Final pass of the lazy-carry algorithms: propagate the carries of column sums (each below
/// 2⁶⁴, total value below 2p < 2^(w·N)) into `w`-bit limbs, then subtract p if needed.
#[inline(always)]
pub fn normalize_and_reduce<const N: usize>(s: &[u64; N], p: &[u64; N], w: u32) -> [u64; N] {
    let m = crate::params::mask(w);
    let mut out = [0u64; N];
    let mut c = 0u64;
    for j in 0..N {
        let t = s[j] + c;
        out[j] = t & m;
        c = t >> w;
    }
    debug_assert_eq!(
        c, 0,
        "the value exceeded 2^(w·N): the modulus needs a spare bit"
    );
    subtract_p_if_needed_radix(&out, 0, p, w)
}
