//! The gnark "no-carry" CIOS: drop the spill words when the modulus leaves room at the top.

use crate::params::MontParams;
use crate::primitives::{mac, subtract_p_if_needed};

/// Why a modulus cannot use [`cios_no_carry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoCarryNotApplicable {
    /// The top 64-bit limb of p.
    pub top_limb: u64,
}

impl core::fmt::Display for NoCarryNotApplicable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the no-carry CIOS needs the top limb of p below 2^63 - 1, but it is {:#018x}",
            self.top_limb
        )
    }
}

// ANCHOR: no_carry_condition
/// The condition under which the spill words of CIOS are provably zero (ConsenSys/gnark, "Faster
/// big-integer modular multiplication for most moduli", 2020): the most significant 64-bit word of
/// p is at most (2⁶⁴ − 1)/2 − 1, i.e. below 2⁶³ − 1. Then every intermediate `t` stays below 2p
/// and fits N words, and the final carries of each row fit one word.
pub const fn no_carry_applies(top_limb: u64) -> bool {
    top_limb < (u64::MAX >> 1)
}

/// Montgomery constants that have passed the no-carry check. The only way to build one is
/// [`NoCarryParams::new`], so [`cios_no_carry`] cannot be called for a modulus that fails it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoCarryParams<const N: usize>(MontParams<N>);

impl<const N: usize> NoCarryParams<N> {
    /// Checks the condition on the top limb of p (64-bit limbs only).
    pub const fn new(k: MontParams<N>) -> Result<Self, NoCarryNotApplicable> {
        assert!(
            k.width == 64,
            "the no-carry condition is stated for 64-bit limbs"
        );
        let top_limb = k.p[N - 1];
        if no_carry_applies(top_limb) {
            Ok(NoCarryParams(k))
        } else {
            Err(NoCarryNotApplicable { top_limb })
        }
    }

    /// The checked constants.
    pub const fn params(&self) -> &MontParams<N> {
        &self.0
    }
}
// ANCHOR_END: no_carry_condition

// ANCHOR: no_carry
/// Montgomery product by gnark's no-carry CIOS (ConsenSys, "Faster big-integer modular
/// multiplication for most moduli", gnark-crypto, 2020; also arkworks' `mul_assign` when
/// `CAN_USE_NO_CARRY_MUL_OPT`).
///
/// Like [`crate::fios::fios`] it does both products of a column in one inner loop with two carry
/// chains, but it keeps no word above `t[N-1]`: the two chains' final carries are simply added
/// into the top word. [`NoCarryParams`] guarantees that this sum never overflows.
#[inline(always)]
pub fn cios_no_carry<const N: usize>(a: &[u64; N], b: &[u64; N], k: &NoCarryParams<N>) -> [u64; N] {
    let k = &k.0;
    let p = &k.p;
    let mut t = [0u64; N];
    for i in 0..N {
        let (lo, mut c_mul) = mac(t[0], a[0], b[i], 0);
        let m = lo.wrapping_mul(k.mu);
        let (_, mut c_red) = mac(lo, m, p[0], 0);
        for j in 1..N {
            let s;
            (s, c_mul) = mac(t[j], a[j], b[i], c_mul);
            (t[j - 1], c_red) = mac(s, m, p[j], c_red);
        }
        t[N - 1] = c_mul + c_red; // no overflow: this is the point of the condition
    }
    subtract_p_if_needed(&t, 0, p)
}
// ANCHOR_END: no_carry
