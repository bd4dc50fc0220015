//! The constants of the divstep inversion (shaders/experiments/safegcd.wgsl), an experiment
//! (cargo feature `experiments`) for the batch-affine SMVP: Bernstein and Yang's safegcd, a fixed
//! number of divsteps taken a word at a time.

use fastmsm_mont::LimbConstants;

use crate::msm::GpuCurve;
use crate::{GpuError, wgsl};

/// Divsteps that bring g to 0 from any f odd and 0 ≤ g ≤ f < 2^bits (Bernstein and Yang, "Fast
/// constant-time gcd computation and modular inversion", Theorem 11.2, δ starting at 1).
pub fn divstep_bound(bits: u32) -> u32 {
    if bits < 46 {
        (49 * bits + 80) / 17
    } else {
        (49 * bits + 57) / 17
    }
}

/// Divsteps per batch at `limb_bits`: at most the limb width (the steps read one limb of f and g)
/// and 30 (the matrix entries fit an i32), and small enough that a limb product by an entry,
/// twice, plus one by a multiple of p and a carry, fits the accumulator: i32 for the portable
/// widths, i64 with 64-bit integers.
pub fn steps_per_batch(limb_bits: u32) -> u32 {
    let acc_bits = if limb_bits > 16 { 64 } else { 32 };
    limb_bits.min(acc_bits - limb_bits - 3).min(30)
}

/// −p⁻¹ mod 2^bits for odd p (Newton's iteration on the lowest word).
fn neg_inverse_mod_pow2(p0: u32, bits: u32) -> u32 {
    let mut inverse = p0; // p0·p0 ≡ 1 mod 8 for odd p0: three bits right
    for _ in 0..5 {
        inverse = inverse.wrapping_mul(2u32.wrapping_sub(p0.wrapping_mul(inverse)));
    }
    inverse.wrapping_neg() & (u32::MAX >> (32 - bits))
}

/// shaders/experiments/safegcd.wgsl for `curve`'s base field at the limbs of `constants`, to
/// append to a module of field.wgsl's functions.
pub(crate) fn source(curve: GpuCurve, constants: &LimbConstants) -> Result<String, GpuError> {
    let params = curve.base_field().params();
    let w = constants.limb_bits;
    let steps = steps_per_batch(w);
    let bits = crate::msm::curve::bit_length(&params.modulus);
    let limbs = constants.limbs;
    let r_cubed = params.pow2_mod(3 * limbs as u32 * w);
    let list = (0..limbs)
        .map(|i| format!("{}u", fastmsm_mont::words::limb_of(&r_cubed, i, w)))
        .collect::<Vec<_>>()
        .join(", ");
    let values = [
        ("SG_STEPS", steps.to_string()),
        (
            "SG_BATCHES",
            divstep_bound(bits).div_ceil(steps).to_string(),
        ),
        ("SG_LIMBS", (limbs + 1).to_string()),
        ("SG_STEP_MASK", (u32::MAX >> (32 - steps)).to_string()),
        (
            "SG_NEG_PINV",
            neg_inverse_mod_pow2(constants.modulus[0], steps).to_string(),
        ),
        ("R_CUBED", list),
        ("SACC", if w > 16 { "i64" } else { "i32" }.to_string()),
    ];
    let source = wgsl::render(crate::shaders::SAFEGCD, &values)?;
    Ok(wgsl::unroll_fixed_loops(&source, limbs))
}

/// Loop iterations of one inversion in a device's loop count: the batches, each with its
/// divsteps' loop (the limb loops are unrolled), and the final product.
pub fn loop_iterations(curve: GpuCurve, limb_bits: u32, product: u32) -> u32 {
    let bits = crate::msm::curve::bit_length(&curve.base_field().params().modulus);
    let steps = steps_per_batch(limb_bits);
    divstep_bound(bits).div_ceil(steps) * (steps + 2) + product + 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_steps() {
        assert_eq!(divstep_bound(254), 735);
        assert_eq!(divstep_bound(377), 1090);
        assert_eq!(divstep_bound(381), 1101);
        for (w, n) in [
            (13, 13),
            (14, 14),
            (15, 14),
            (16, 13),
            (29, 29),
            (30, 30),
            (32, 29),
        ] {
            assert_eq!(steps_per_batch(w), n, "{w}-bit limbs");
        }
    }

    #[test]
    fn negated_inverse() {
        for p0 in [1u32, 3, 0x8000_0001, 0xffff_ffff, 0x1234_5679] {
            for bits in [13, 29, 30] {
                let m = neg_inverse_mod_pow2(p0, bits);
                let mask = u32::MAX >> (32 - bits);
                assert_eq!(
                    p0.wrapping_mul(m).wrapping_add(1) & mask,
                    0,
                    "{p0:#x} {bits}"
                );
            }
        }
    }
}
