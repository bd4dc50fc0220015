//! The curves the GPU MSM supports and the WGSL module for each (field functions + curve formulas
//! + stages, every constant injected from Rust).

use fastmsm_curves::sw::SwCurve;
use fastmsm_curves::te::TeCurve;
use fastmsm_curves::{Bls12_377, Bls12_381, Bn254, Canonical, EdBls12_377, PrimeField};
use fastmsm_mont::{Field, LimbConstants};

use crate::field::field_constants_in;
use crate::mont_wgsl::KernelForm;
use crate::shaders::{CURVE_SW, CURVE_TE, FIELD as FIELD_FUNCTIONS, MSM as MSM_STAGES};
use crate::{GpuError, wgsl};

/// Invocations per workgroup of every stage except `prefix`.
pub const WORKGROUP_SIZE: u32 = 64;

/// Invocations per workgroup of `prefix`, one workgroup per window, each summing a run of the
/// window's bucket counts; it holds one `u32` per invocation in workgroup storage. 256 is
/// WebGPU's default limit on invocations per workgroup.
pub const PREFIX_THREADS: u32 = 256;

/// The curves the GPU MSM supports (G1 of the pairing curves; Ed-on-BLS12-377).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuCurve {
    /// BN254 G1 (short Weierstrass, a = 0), over a 254-bit base field.
    Bn254,
    /// BLS12-377 G1 (short Weierstrass, a = 0), over a 377-bit base field.
    Bls12_377,
    /// BLS12-381 G1 (short Weierstrass, a = 0), over a 381-bit base field.
    Bls12_381,
    /// The twisted Edwards curve over BLS12-377's scalar field (253 bits), in extended coordinates.
    EdBls12_377,
}

impl GpuCurve {
    /// Every supported curve, in the order the CLI and the widgets list them.
    pub const ALL: [GpuCurve; 4] = [
        GpuCurve::Bn254,
        GpuCurve::Bls12_377,
        GpuCurve::Bls12_381,
        GpuCurve::EdBls12_377,
    ];

    /// The names used by the CLI and the interchange format.
    pub fn name(self) -> &'static str {
        match self {
            GpuCurve::Bn254 => "bn254",
            GpuCurve::Bls12_377 => "bls12-377",
            GpuCurve::Bls12_381 => "bls12-381",
            GpuCurve::EdBls12_377 => "ed-on-bls12-377",
        }
    }

    /// The curve with that [`GpuCurve::name`], or `None`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The field of the point coordinates, which the shader's arithmetic runs in.
    pub fn base_field(self) -> Field {
        match self {
            GpuCurve::Bn254 => Field::Bn254Fq,
            GpuCurve::Bls12_377 => Field::Bls12_377Fq,
            GpuCurve::Bls12_381 => Field::Bls12_381Fq,
            GpuCurve::EdBls12_377 => Field::Bls12_377Fr, // Ed-on-BLS12-377 is defined over BLS12-377's Fr
        }
    }

    /// The order r of the prime-order subgroup; scalars must be below it.
    pub fn scalar_modulus(self) -> Canonical {
        match self {
            GpuCurve::Bn254 => <Bn254 as SwCurve>::SCALAR_MODULUS,
            GpuCurve::Bls12_377 => <Bls12_377 as SwCurve>::SCALAR_MODULUS,
            GpuCurve::Bls12_381 => <Bls12_381 as SwCurve>::SCALAR_MODULUS,
            GpuCurve::EdBls12_377 => <EdBls12_377 as TeCurve>::SCALAR_MODULUS,
        }
    }

    /// Whether the curve is twisted Edwards (its own WGSL formulas and a complete addition) rather
    /// than short Weierstrass.
    pub fn is_edwards(self) -> bool {
        self == GpuCurve::EdBls12_377
    }

    /// 32-bit words of one base-field coordinate in the packed input.
    pub fn coord_words(self) -> usize {
        bit_length(&self.base_field().params().modulus).div_ceil(32) as usize
    }
}

pub(crate) fn bit_length(x: &Canonical) -> u32 {
    (0..x.len())
        .rev()
        .find(|&i| x[i] != 0)
        .map_or(0, |i| 64 * i as u32 + 64 - x[i].leading_zeros())
}

/// The WGSL module for `curve` with the limb layout of `constants`.
pub fn shader_source(curve: GpuCurve, constants: &LimbConstants) -> Result<String, GpuError> {
    shader_source_in(curve, constants, KernelForm::Unrolled)
}

/// As [`shader_source`], with the Montgomery product in `form`. The kernels' own limb loops
/// are unrolled in both forms: short loops that LLVM-based compilers (lavapipe) otherwise
/// unroll themselves at greater cost.
pub fn shader_source_in(
    curve: GpuCurve,
    constants: &LimbConstants,
    form: KernelForm,
) -> Result<String, GpuError> {
    module_source(curve, constants, form, MixedAdd::for_limbs(constants), &[])
}

/// The module with the SMVP's mixed addition in `mixed`, and `extra` WGSL templates (filled in
/// with the same constants) after the stages: the experiments' forms.
pub(crate) fn module_source(
    curve: GpuCurve,
    constants: &LimbConstants,
    form: KernelForm,
    mixed: MixedAdd,
    extra: &[&str],
) -> Result<String, GpuError> {
    let mut values = field_constants_in(constants, form);
    values.push(("WORKGROUP_SIZE", WORKGROUP_SIZE.to_string()));
    values.push(("PREFIX_THREADS", PREFIX_THREADS.to_string()));
    values.push(("COORD_WORDS", curve.coord_words().to_string()));
    values.push(("POINT_ACCESSORS", point_accessors()));
    let modulus = &curve.base_field().params().modulus;
    values.push(("P_WORDS", super::words32_list(modulus, curve.coord_words())));
    values.push(("R_WORDS", super::words32_list(&curve.scalar_modulus(), 8)));
    let curve_src = if curve.is_edwards() {
        values.push(("TE_K_MONT", edwards_k_limbs(constants)));
        CURVE_TE
    } else {
        values.push(("MIXED_ADD", mixed.wgsl_suffix().into()));
        values.push((
            "POINT_ADD",
            GeneralAdd::for_limbs(constants).wgsl_suffix().into(),
        ));
        CURVE_SW
    };
    let mut template = format!("{FIELD_FUNCTIONS}\n{curve_src}\n{MSM_STAGES}");
    for more in extra {
        template.push('\n');
        template.push_str(more);
    }
    let source = wgsl::render(&template, &values)?;
    Ok(wgsl::unroll_fixed_loops(&source, constants.limbs))
}

/// Products in add-2008-s: the steps of curve_sw.wgsl's stepped general addition. The host writes
/// it into every `Params` record and the shader loops up to it, so that the driver cannot unroll
/// the loop.
pub const ADD_STEPS: u32 = 14;

// ANCHOR: mixed_add_rule
/// How the SMVP's mixed addition is laid out in the shader (curve_sw.wgsl): the same products,
/// either all inlined or one per iteration of a loop through a single Montgomery product; the
/// stepped loop reads the input point before it starts (by value) or coordinate by coordinate.
/// The forms no rule picks are experiments (cargo feature `experiments`; their WGSL is in
/// shaders/experiments/curve_sw_forms.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixedAdd {
    /// Every product written out in line.
    #[cfg(feature = "experiments")]
    Inlined,
    /// One Montgomery product in a loop; the input point is read whole before the loop.
    SteppedByValue,
    /// One Montgomery product in a loop; each coordinate of the input point is read when a step
    /// needs it.
    #[cfg(feature = "experiments")]
    SteppedByCoordinate,
}

impl MixedAdd {
    /// Stepped, by value, at every width: with the SMVP's flat loop it was the fastest form at
    /// every width measured (benches/experiments.json, "SMVP mixed-addition form").
    pub fn for_limbs(_k: &LimbConstants) -> Self {
        MixedAdd::SteppedByValue
    }

    /// The suffix of its `add_entry_*` function in curve_sw.wgsl.
    pub fn wgsl_suffix(self) -> &'static str {
        match self {
            #[cfg(feature = "experiments")]
            MixedAdd::Inlined => "inlined",
            MixedAdd::SteppedByValue => "stepped_by_value",
            #[cfg(feature = "experiments")]
            MixedAdd::SteppedByCoordinate => "stepped_by_coordinate",
        }
    }
}
// ANCHOR_END: mixed_add_rule

// ANCHOR: general_add_rule
/// How the general addition of the combine, reduction and fold is laid out (curve_sw.wgsl): all
/// fourteen products inlined, or stepped through one Montgomery product with the doubling as nine
/// more steps and a loop bound read at run time (`ADD_STEPS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneralAdd {
    /// All fourteen products written out in line.
    Inlined,
    /// One Montgomery product in a loop of [`ADD_STEPS`] steps (plus the doubling's).
    Stepped,
}

impl GeneralAdd {
    /// Stepped from 13 to 20 limbs: fewer registers pay there; below, the loop costs more than it
    /// saves, and above, its twelve live field elements spill (benches/experiments.json,
    /// "general addition form").
    pub fn for_limbs(k: &LimbConstants) -> Self {
        if (13..=20).contains(&k.limbs) {
            GeneralAdd::Stepped
        } else {
            GeneralAdd::Inlined
        }
    }

    /// The suffix of its `point_add_*` function in curve_sw.wgsl.
    pub fn wgsl_suffix(self) -> &'static str {
        match self {
            GeneralAdd::Inlined => "inlined",
            GeneralAdd::Stepped => "stepped",
        }
    }
}
// ANCHOR_END: general_add_rule

/// WGSL functions that read and write a `Point` (four coordinates of NUM_LIMBS limbs) at an index of
/// the bucket, partial-sum and head-slot buffers.
fn point_accessors() -> String {
    let read = |name: &str, buffer: &str| {
        format!(
            "fn read_{name}(index: u32) -> Point {{\n    var c: array<Big, 4>;\n    for (var k = 0u; k < 4u; k++) {{\n        for (var l = 0u; l < NUM_LIMBS; l++) {{\n            c[k][l] = {buffer}[index * POINT_WORDS + k * NUM_LIMBS + l];\n        }}\n    }}\n    return point_pack(c);\n}}\n"
        )
    };
    let write = |name: &str, buffer: &str| {
        format!(
            "fn write_{name}(index: u32, p: Point) {{\n    let c = point_unpack(p);\n    for (var k = 0u; k < 4u; k++) {{\n        for (var l = 0u; l < NUM_LIMBS; l++) {{\n            {buffer}[index * POINT_WORDS + k * NUM_LIMBS + l] = c[k][l];\n        }}\n    }}\n}}\n"
        )
    };
    [
        read("bucket", "buckets"),
        write("bucket", "buckets"),
        read("partial", "partials"),
        write("partial", "partials"),
        read("head", "heads_in"),
        write("head", "heads_out"),
    ]
    .join("\n")
}

/// 2d of Ed-on-BLS12-377 in the shader's Montgomery form (R = 2^(w·limbs)), as a WGSL list.
fn edwards_k_limbs(k: &LimbConstants) -> String {
    type Base = <EdBls12_377 as TeCurve>::Base;
    let two_d = EdBls12_377::D.double();
    let r = fastmsm_mont::params::FieldParams::pow2_mod(
        Field::Bls12_377Fr.params(),
        k.limbs as u32 * k.limb_bits,
    );
    let mont = (two_d * Base::from_canonical(&r).expect("R mod p is below p")).to_canonical();
    (0..k.limbs)
        .map(|i| format!("{}u", fastmsm_mont::words::limb_of(&mont, i, k.limb_bits)))
        .collect::<Vec<_>>()
        .join(", ")
}
