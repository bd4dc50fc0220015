// Field inversion for the kernels that need one (appended to the MSM's module where they run:
// precomputed bases, the batch-affine experiments), over field.wgsl; its constants come from the
// host (crates/msm-gpu/src/msm/precompute.rs, `inverse_constants`).

const INV_BITS: u32 = {{INV_BITS}}u;                                   // bit length of p − 2
const INV_EXP = array<u32, COORD_WORDS>({{INV_EXP_WORDS}});              // p − 2, 32-bit words

// ANCHOR: field_inverse
// a⁻¹ = a^(p−2) (Fermat), square-and-multiply from the top bit of p − 2, one product per step
// through one mont_mul call: a multiply step follows each square step whose bit is set. In
// Montgomery form throughout (aR)^(p−2)·R^{-(p−3)} = a⁻¹R. a must be nonzero.
fn field_inverse(a: Big) -> Big {
    var r = a;                // the top bit of p − 2 is set
    var bit = INV_BITS - 1u;  // bits of the exponent still to take
    var multiply = false;     // this step multiplies by a (else it squares)
    loop {
        if (!multiply && bit == 0u) { break; }
        var y = r;
        if (multiply) {
            y = a;
        } else {
            bit -= 1u;
        }
        r = mont_mul(r, y);
        multiply = !multiply && ((INV_EXP[bit / 32u] >> (bit % 32u)) & 1u) == 1u;
    }
    return r;
}
// ANCHOR_END: field_inverse
