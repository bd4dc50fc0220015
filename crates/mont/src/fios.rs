//! FIOS: Finely Integrated Operand Scanning, on 64-bit limbs.

use crate::params::MontParams;
use crate::primitives::{adc, mac, subtract_p_if_needed};

// ANCHOR: fios
/// Montgomery product by the FIOS method (Koç, Acar, Kaliski, "Analyzing and Comparing Montgomery
/// Multiplication Algorithms", IEEE Micro 1996, Algorithm "FIOS").
///
/// One inner loop does both products of column j: `a[j]·b[i]` and `m·p[j]`. Two 64-bit products
/// do not fit one 128-bit accumulator, so each gets its own carry chain (`c_mul`, `c_red`); the
/// paper instead pushes the first carry into `t[j+1]` with an extra ADD, which amounts to the
/// same arithmetic with more memory traffic. Bos & Montgomery (2017) and Mitscha-Baude (2022, "the
/// iterative algorithm") use this shape without naming it.
#[inline(always)]
pub fn fios<const N: usize>(a: &[u64; N], b: &[u64; N], k: &MontParams<N>) -> [u64; N] {
    let p = &k.p;
    let mut t = [0u64; N];
    let mut t_hi = 0u64; // word N; stays 0 or 1 between steps
    for i in 0..N {
        let (lo, mut c_mul) = mac(t[0], a[0], b[i], 0);
        let m = lo.wrapping_mul(k.mu);
        let (_, mut c_red) = mac(lo, m, p[0], 0);
        for j in 1..N {
            let s;
            (s, c_mul) = mac(t[j], a[j], b[i], c_mul);
            (t[j - 1], c_red) = mac(s, m, p[j], c_red);
        }
        let (s, k1) = adc(t_hi, c_mul, 0);
        let (s, k2) = adc(s, c_red, 0);
        t[N - 1] = s;
        t_hi = k1 + k2;
    }
    subtract_p_if_needed(&t, t_hi, p)
}
// ANCHOR_END: fios
