//! The cpu-msm widget's variants of our MSM: bucket accumulation × field representation, by
//! name, and one run of each with the reader's options.

use fastmsm_msm::window::window_size;
use fastmsm_msm::{
    Accumulation, Algorithm, AllAffineConfig, BatchAffineConfig, CpuGroup, MsmConfig, MsmError,
    MsmGroup, MsmOutput, Points, Reduction, Scalar, Window, msm,
};

use super::stats::Stats;

/// Every variant of the widget, in its order.
const ALL_VARIANTS: [&str; 10] = [
    "projective",
    "batch-affine",
    "all-affine",
    "projective-r30",
    "batch-affine-r30",
    "all-affine-r30",
    "projective-r51",
    "batch-affine-r51",
    "all-affine-r51",
    "arkworks",
];

/// Does this package run the 51-bit twins? Their product is Emmart's on `f64x2.relaxed_madd`
/// (`fastmsm_curves::radix51`): only the relaxed-SIMD package has it; without relaxed SIMD the
/// FMA is emulated in software, some 30× slower, so the other packages leave them out.
const HAS_R51: bool = cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd"));

/// The variants [`super::CpuMsm::run`] knows in this package, in the widget's order.
pub fn variants() -> Vec<&'static str> {
    ALL_VARIANTS
        .into_iter()
        .filter(|v| HAS_R51 || !v.ends_with("-r51"))
        .collect()
}

/// Bucket accumulation of one of our variants.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Acc {
    /// Mixed projective additions (`fastmsm_msm::bucket`), projective reduction.
    Projective,
    /// Batch-affine accumulation with collision deferral (`fastmsm_msm::batch_affine`),
    /// projective reduction.
    BatchAffine,
    /// Sorted accumulation and reduction, every bucket addition affine (`fastmsm_msm::all_affine`).
    AllAffine,
}

/// The field representation of one of our variants.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Limbs {
    /// `fastmsm_curves::field::Fp`: 64-bit words.
    W64,
    /// `fastmsm_curves::radix30`: 30-bit limbs.
    R30,
    /// `fastmsm_curves::radix51`: 51-bit limbs, Emmart's FMA product.
    R51,
}

/// `(accumulation, limbs)` of a variant name among [`variants`], `None` for arkworks or an
/// unknown name.
pub(crate) fn parse_variant(variant: &str) -> Option<(Acc, Limbs)> {
    if !variants().contains(&variant) {
        return None;
    }
    let (base, limbs) = if let Some(b) = variant.strip_suffix("-r30") {
        (b, Limbs::R30)
    } else if let Some(b) = variant.strip_suffix("-r51") {
        (b, Limbs::R51)
    } else {
        (variant, Limbs::W64)
    };
    let acc = match base {
        "projective" => Acc::Projective,
        "batch-affine" => Acc::BatchAffine,
        "all-affine" => Acc::AllAffine,
        _ => return None,
    };
    Some((acc, limbs))
}

/// The reader's options for our runs.
#[derive(Clone, Copy)]
pub(crate) struct Opts {
    pub window: Option<u32>,
    pub batch: Option<usize>,
    pub glv: bool,
}

impl Opts {
    /// From the widget's numbers: a window or batch of 0 means the default.
    pub(crate) fn from_js(window: u32, batch: u32, glv: bool) -> Self {
        Self {
            window: (window != 0).then_some(window),
            batch: (batch != 0).then_some(batch as usize),
            glv,
        }
    }
}

/// Runs one of our MSMs through the front door, the accumulation, limbs and reader's options
/// as its configuration (with the field operations counted if `count`), and the statistics of
/// the batch-affine and all-affine accumulations.
pub(crate) fn run_ours<G: CpuGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    acc: Acc,
    limbs: Limbs,
    count: bool,
    o: &Opts,
) -> Result<(MsmOutput<G>, Option<Stats>), MsmError> {
    let algorithm = match acc {
        Acc::Projective => Algorithm::pippenger(),
        Acc::BatchAffine => {
            let mut ba = BatchAffineConfig::default();
            if let Some(b) = o.batch {
                // a bigger batch meets more busy buckets: let the deferred queue grow with it
                ba.batch_size = b;
                ba.max_deferred = ba.max_deferred.max(4 * b);
            }
            Algorithm::Pippenger {
                accumulation: Accumulation::BatchAffine(ba),
                reduction: Reduction::RunningSum,
            }
        }
        Acc::AllAffine => {
            let mut aa = AllAffineConfig::default();
            if let Some(b) = o.batch {
                aa.accumulation_batch = b;
            }
            Algorithm::AllAffine(aa)
        }
    };
    let cfg = MsmConfig {
        algorithm,
        window: o.window.map_or(Window::Auto, Window::Fixed),
        glv: o.glv,
        limbs: match limbs {
            Limbs::W64 => fastmsm_msm::Limbs::Mont64,
            Limbs::R30 => fastmsm_msm::Limbs::Radix30,
            Limbs::R51 => fastmsm_msm::Limbs::Radix51,
        },
        count_ops: count,
        // the seeded points are multiples of the generator: in the subgroup, as GLV needs
        points: Points::InSubgroupUnchecked,
        ..MsmConfig::default()
    };
    let out = msm(points, scalars, &cfg)?;
    let stats = match acc {
        Acc::Projective => None,
        Acc::BatchAffine => Some(out.stats.batch_affine.into()),
        Acc::AllAffine => Some(out.stats.all_affine.into()),
    };
    Ok((out, stats))
}

/// The window width the run used: the one the MSM reported, else (no points) the one it was
/// given, else the one an MSM of one point picks (with or without GLV).
pub(crate) fn window_used<G: MsmGroup>(reported: u32, o: &Opts) -> u32 {
    if reported > 0 {
        return reported;
    }
    if let Some(c) = o.window {
        return c;
    }
    match o.glv.then(|| G::glv_expand(&[], &[])).flatten() {
        Some(split) => window_size(2, &split.bound),
        None => window_size(1, &G::SCALAR_MODULUS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_but_arkworks_parses() {
        for v in variants().into_iter().filter(|v| *v != "arkworks") {
            assert!(parse_variant(v).is_some(), "{v}");
        }
        assert_eq!(variants().len(), if HAS_R51 { 10 } else { 7 });
        assert_eq!(
            parse_variant("batch-affine-r30"),
            Some((Acc::BatchAffine, Limbs::R30))
        );
        assert_eq!(parse_variant("arkworks"), None);
        assert_eq!(parse_variant("projective-r16"), None);
        assert_eq!(parse_variant(""), None);
    }

    #[test]
    fn zero_means_the_default() {
        let o = Opts::from_js(0, 0, true);
        assert_eq!((o.window, o.batch, o.glv), (None, None, true));
        let o = Opts::from_js(9, 64, false);
        assert_eq!((o.window, o.batch), (Some(9), Some(64)));
    }
}
