//! SOS: Separated Operand Scanning, with the squaring shortcut.

use crate::params::MontParams;
use crate::primitives::{adc, mac, subtract_p_if_needed};
use crate::words::WORDS;

/// Scratch length for a double-width product plus one spill word. Stable Rust cannot size an
/// array `2·N + 1` from a const generic, so the scratch is sized for the largest field.
const SCRATCH: usize = 2 * WORDS + 1;

// ANCHOR: sos
/// Montgomery product by the SOS method (Koç, Acar, Kaliski, "Analyzing and Comparing Montgomery
/// Multiplication Algorithms", IEEE Micro 1996, Algorithm "SOS").
///
/// First the full 2N-word product `t = a·b`, then N reduction rows, each adding `m·p·2^(64i)` so
/// that word i becomes zero. The answer is the upper half. Separating the two phases is what lets
/// the product phase be specialised, e.g. for squaring ([`sos_square`]) or Karatsuba.
#[inline(always)]
pub fn sos<const N: usize>(a: &[u64; N], b: &[u64; N], k: &MontParams<N>) -> [u64; N] {
    const { assert!(N <= WORDS) };
    let mut t = [0u64; SCRATCH];
    for i in 0..N {
        let mut c = 0;
        for j in 0..N {
            (t[i + j], c) = mac(t[i + j], a[i], b[j], c);
        }
        t[i + N] = c;
    }
    sos_reduce(&mut t, k)
}

/// The reduction phase shared by [`sos`] and [`sos_square`]: `t·R⁻¹ mod p` for `t < p·R`.
#[inline(always)]
fn sos_reduce<const N: usize>(t: &mut [u64; SCRATCH], k: &MontParams<N>) -> [u64; N] {
    let p = &k.p;
    let mut pending = 0; // carry out of word i + N, owed to word i + N + 1
    for i in 0..N {
        let m = t[i].wrapping_mul(k.mu);
        let mut c = 0;
        for j in 0..N {
            (t[i + j], c) = mac(t[i + j], m, p[j], c);
        }
        let (s, c1) = adc(t[i + N], c, pending);
        t[i + N] = s;
        pending = c1;
    }
    let mut u = [0u64; N];
    u.copy_from_slice(&t[N..2 * N]);
    subtract_p_if_needed(&u, pending, p)
}
// ANCHOR_END: sos

// ANCHOR: sos_square
/// Montgomery square `a²·R⁻¹ mod p`: SOS with the squaring shortcut.
///
/// In `a·a` every cross product `a[i]·a[j]` (i ≠ j) appears twice, so compute each once, double
/// the sum with a one-bit shift, then add the N diagonal squares: N(N+1)/2 word products instead
/// of N². The reduction phase is unchanged (Koç, Acar, Kaliski 1996 discuss this as the main reason
/// to keep the phases separate).
#[inline]
pub fn sos_square<const N: usize>(a: &[u64; N], k: &MontParams<N>) -> [u64; N] {
    const { assert!(N <= WORDS) };
    let mut t = [0u64; SCRATCH];
    // cross products, i < j
    for i in 0..N {
        let mut c = 0;
        for j in (i + 1)..N {
            (t[i + j], c) = mac(t[i + j], a[i], a[j], c);
        }
        t[i + N] = c;
    }
    // double: shift the 2N-word number left by one bit
    let mut top = 0;
    for w in t.iter_mut().take(2 * N) {
        let next = *w >> 63;
        *w = (*w << 1) | top;
        top = next;
    }
    // add the squares a[i]² at word 2i
    let mut c = 0;
    for i in 0..N {
        let (lo, hi) = mac(0, a[i], a[i], 0);
        (t[2 * i], c) = adc(t[2 * i], lo, c);
        (t[2 * i + 1], c) = adc(t[2 * i + 1], hi, c);
    }
    sos_reduce(&mut t, k)
}
// ANCHOR_END: sos_square
