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

/// Propagates the carries of column sums (each below 2⁶⁴, total value below 2^(w·N)) into
/// `w`-bit limbs. The value is unchanged: below 2p in, below 2p out.
#[inline(always)]
pub fn normalize<const N: usize>(s: &[u64; N], w: u32) -> [u64; N] {
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
    out
}

/// Final pass of the lazy-carry algorithms: [`normalize`], then subtract p if needed.
#[inline(always)]
pub fn normalize_and_reduce<const N: usize>(s: &[u64; N], p: &[u64; N], w: u32) -> [u64; N] {
    subtract_p_if_needed_radix(&normalize(s, w), 0, p, w)
}

// ANCHOR: add_sub_radix
/// a + b mod p for `w`-bit limbs (w ≤ 62) of values below p, with 2p < 2^(w·N): two carry chains
/// side by side, s = a + b and t = a + b − p (signed limbs, an arithmetic shift carries −1, 0 or
/// 1); the sign of t's last carry picks one, without a branch. (a + b < 2^(w·N), so s never
/// carries out of the top limb.)
#[inline(always)]
pub fn add_mod_radix<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N], w: u32) -> [u64; N] {
    let m = crate::params::mask(w);
    let (mut s, mut t) = ([0u64; N], [0u64; N]);
    let (mut cs, mut ct) = (0u64, 0i64);
    for j in 0..N {
        let v = a[j] + b[j];
        let x = v + cs;
        s[j] = x & m;
        cs = x >> w;
        let y = v as i64 - p[j] as i64 + ct;
        t[j] = y as u64 & m;
        ct = y >> w;
    }
    // ct = −1: a + b < p, keep s; otherwise t = a + b − p
    let keep_s = (ct as u64) & m; // all ones (within a limb) exactly when ct = −1
    let mut out = [0u64; N];
    for j in 0..N {
        out[j] = (s[j] & keep_s) | (t[j] & !keep_s & m);
    }
    out
}

/// a − b mod p for `w`-bit limbs (w ≤ 62) of values below p: two borrow chains side by side,
/// d = a − b and e = a − b + p (signed limbs); the sign of d's last borrow picks one, without a
/// branch. (On a borrow d wraps by 2^(w·N), which e's top carry cancels: its limbs are exactly
/// a − b + p.)
#[inline(always)]
pub fn sub_mod_radix<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N], w: u32) -> [u64; N] {
    let m = crate::params::mask(w);
    let (mut d, mut e) = ([0u64; N], [0u64; N]);
    let (mut bd, mut ce) = (0i64, 0i64);
    for j in 0..N {
        let v = a[j] as i64 - b[j] as i64;
        let x = v + bd;
        d[j] = x as u64 & m;
        bd = x >> w;
        let y = v + p[j] as i64 + ce;
        e[j] = y as u64 & m;
        ce = y >> w;
    }
    // bd = −1: a < b, take e = a − b + p; otherwise d = a − b
    let take_e = (bd as u64) & m;
    let mut out = [0u64; N];
    for j in 0..N {
        out[j] = (e[j] & take_e) | (d[j] & !take_e & m);
    }
    out
}
// ANCHOR_END: add_sub_radix

/// a − b + p for `w`-bit limbs of values below p, with 2p ≤ 2^(w·N): one borrow chain and no
/// selection, half of [`sub_mod_radix`]'s work. The result is congruent to a − b but only below
/// 2p (it is p, not 0, when a = b): an operand for lazy Emmart products
/// (`emmart::emmart_mul_interleaved_lazy`, whose bound admits operands below 2p), nothing else.
#[inline(always)]
pub fn sub_lazy_radix<const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    p: &[u64; N],
    w: u32,
) -> [u64; N] {
    let m = crate::params::mask(w);
    let mut out = [0u64; N];
    let mut c = 0i64;
    for j in 0..N {
        let x = a[j] as i64 - b[j] as i64 + p[j] as i64 + c;
        out[j] = x as u64 & m;
        c = x >> w;
    }
    debug_assert_eq!(c, 0, "a − b + p is positive and below 2^(w·N)");
    out
}
