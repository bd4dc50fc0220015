//! The gnark "no-carry" CIOS: drop the spill words when the modulus leaves room at the top; and
//! its lazy form, which also drops the final subtraction when the room is two bits.

use crate::params::MontParams;
use crate::primitives::{mac, subtract_p_if_needed};

/// Why a modulus cannot use [`cios_no_carry`] (or [`cios_no_carry_lazy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoCarryNotApplicable {
    /// The top 64-bit limb of p.
    pub top_limb: u64,
    /// The product's condition: the top limb must be below this.
    pub limit: u64,
}

impl core::fmt::Display for NoCarryNotApplicable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let what = if self.limit == LAZY_LIMIT {
            "the lazy no-carry CIOS"
        } else {
            "the no-carry CIOS"
        };
        write!(
            f,
            "{what} needs the top limb of p below {:#018x}, but it is {:#018x}",
            self.limit, self.top_limb
        )
    }
}

// ANCHOR: no_carry_condition
/// The condition under which the spill words of CIOS are provably zero (ConsenSys/gnark, "Faster
/// big-integer modular multiplication for most moduli", 2020): the most significant 64-bit word of
/// p is at most (2⁶⁴ − 1)/2 − 1, i.e. below 2⁶³ − 1. Then every intermediate `t` stays below 2p
/// and fits N words, and the final carries of each row fit one word.
pub const fn no_carry_applies(top_limb: u64) -> bool {
    top_limb < NO_CARRY_LIMIT
}
const NO_CARRY_LIMIT: u64 = u64::MAX >> 1;

/// `k` if the top 64-bit limb of p is below `limit`: the one check behind both constructors.
const fn check_top_limb<const N: usize>(
    k: MontParams<N>,
    limit: u64,
) -> Result<MontParams<N>, NoCarryNotApplicable> {
    assert!(
        k.width == 64,
        "the no-carry conditions are stated for 64-bit limbs"
    );
    let top_limb = k.p[N - 1];
    if top_limb < limit {
        Ok(k)
    } else {
        Err(NoCarryNotApplicable { top_limb, limit })
    }
}

/// Montgomery constants that have passed the no-carry check. The only way to build one is
/// [`NoCarryParams::new`], so [`cios_no_carry`] cannot be called for a modulus that fails it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoCarryParams<const N: usize>(MontParams<N>);

impl<const N: usize> NoCarryParams<N> {
    /// Checks the condition on the top limb of p (64-bit limbs only).
    pub const fn new(k: MontParams<N>) -> Result<Self, NoCarryNotApplicable> {
        match check_top_limb(k, NO_CARRY_LIMIT) {
            Ok(k) => Ok(NoCarryParams(k)),
            Err(e) => Err(e),
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
    subtract_p_if_needed(&rows(a, b, &k.0), 0, &k.0.p)
}

/// The rows of the no-carry CIOS, without the final subtraction: a·b·R⁻¹ + (0 or p).
#[inline(always)]
fn rows<const N: usize>(a: &[u64; N], b: &[u64; N], k: &MontParams<N>) -> [u64; N] {
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
    t
}
// ANCHOR_END: no_carry

// ANCHOR: no_carry_lazy
/// The top-limb limit of the lazy product: p < 2^(64N − 2), i.e. R ≥ 4p.
const LAZY_LIMIT: u64 = 1 << 62;

/// Montgomery constants that have passed the lazy no-carry check, R ≥ 4p (two spare bits at the
/// top of p). Built only by [`LazyNoCarryParams::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LazyNoCarryParams<const N: usize>(MontParams<N>);

impl<const N: usize> LazyNoCarryParams<N> {
    /// Checks R ≥ 4p on the top limb of p (64-bit limbs only).
    pub const fn new(k: MontParams<N>) -> Result<Self, NoCarryNotApplicable> {
        match check_top_limb(k, LAZY_LIMIT) {
            Ok(k) => Ok(LazyNoCarryParams(k)),
            Err(e) => Err(e),
        }
    }

    /// The checked constants.
    pub const fn params(&self) -> &MontParams<N> {
        &self.0
    }
}

/// The no-carry CIOS without the final subtraction: operands below 2p, result below 2p.
///
/// Each row keeps t < a + p (t + a·bᵢ + m·p < 2⁶⁴(a + p), divided by 2⁶⁴), so with a < 2p the
/// rows stay below 3p < R and the two carries still add up to the true top word. The result is
/// below a·b/R + p < 4p²/R + p ≤ 2p. It feeds the next product as it is; only leaving the
/// representation needs the subtraction. The subtraction is a borrow chain and a selection on
/// every word, paid once per product in [`cios_no_carry`].
#[inline(always)]
pub fn cios_no_carry_lazy<const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    k: &LazyNoCarryParams<N>,
) -> [u64; N] {
    rows(a, b, &k.0)
}
// ANCHOR_END: no_carry_lazy
