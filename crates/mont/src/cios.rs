//! CIOS: Coarsely Integrated Operand Scanning, on 64-bit limbs.

use crate::params::MontParams;
use crate::primitives::{adc, mac, subtract_p_if_needed};

// ANCHOR: cios
/// Montgomery product `a·b·R⁻¹ mod p` by the CIOS method (Koç, Acar, Kaliski, "Analyzing and
/// Comparing Montgomery Multiplication Algorithms", IEEE Micro 1996, Algorithm "CIOS"; Acar's
/// thesis, Oregon State 1996).
///
/// Each outer step adds one row `a·b[i]` (first inner loop), then adds `m·p` with `m` chosen to
/// clear the lowest word and shifts down one word (second inner loop). `t` keeps N + 2 words: the
/// N below plus a spill word `t_hi` and its carry, so no condition on p is needed.
/// Inputs below p give an output below p.
#[inline(always)]
pub fn cios<const N: usize>(a: &[u64; N], b: &[u64; N], k: &MontParams<N>) -> [u64; N] {
    let p = &k.p;
    let mut t = [0u64; N];
    let mut t_hi = 0u64; // word N of the accumulator; word N + 1 is at most 1 and lives in `top`
    for i in 0..N {
        // t += a · b[i]
        let mut c = 0;
        for j in 0..N {
            (t[j], c) = mac(t[j], a[j], b[i], c);
        }
        let (s, top) = adc(t_hi, c, 0);
        // t = (t + m·p) / 2^64, where m makes the lowest word vanish
        let m = t[0].wrapping_mul(k.mu);
        let (_, mut c) = mac(t[0], m, p[0], 0);
        for j in 1..N {
            (t[j - 1], c) = mac(t[j], m, p[j], c);
        }
        let (s, c2) = adc(s, c, 0);
        t[N - 1] = s;
        t_hi = top + c2;
    }
    subtract_p_if_needed(&t, t_hi, p)
}
// ANCHOR_END: cios
