//! The cpu-msm widget's variants of our MSM: bucket accumulation × field representation, by
//! name, and one run of each with the reader's options.

use fastmsm_msm::all_affine::{AllAffineConfig, AllAffineStats, msm_all_affine};
use fastmsm_msm::window::window_size;
use fastmsm_msm::{
    Accumulation, BatchAffineConfig, BatchAffineStats, MsmConfig, MsmError, MsmGroup, Scalar,
    msm_with_stats,
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

/// Runs one of our MSMs on group G (ours, its 30- or 51-bit twin, or its counted twin), with the
/// statistics of the batch-affine and all-affine accumulations.
pub(crate) fn run_ours<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    acc: Acc,
    o: &Opts,
) -> Result<(G, Option<Stats>), MsmError> {
    match acc {
        Acc::Projective | Acc::BatchAffine => {
            let accumulation = if acc == Acc::Projective {
                Accumulation::Projective
            } else {
                let mut ba = BatchAffineConfig::default();
                if let Some(b) = o.batch {
                    // a bigger batch meets more busy buckets: let the deferred queue grow with it
                    ba.batch_size = b;
                    ba.max_deferred = ba.max_deferred.max(4 * b);
                }
                Accumulation::BatchAffine(ba)
            };
            let cfg = MsmConfig {
                window: o.window,
                accumulation,
                glv: o.glv,
                ..MsmConfig::default()
            };
            let mut stats = BatchAffineStats::default();
            let q = msm_with_stats(points, scalars, &cfg, &mut stats)?;
            Ok((q, (acc == Acc::BatchAffine).then(|| stats.into())))
        }
        Acc::AllAffine => {
            let mut cfg = AllAffineConfig {
                window: o.window,
                glv: o.glv,
                ..AllAffineConfig::default()
            };
            if let Some(b) = o.batch {
                cfg.accumulation_batch = b;
            }
            let mut stats = AllAffineStats::default();
            let q = msm_all_affine(points, scalars, &cfg, &mut stats)?;
            Ok((q, Some(stats.into())))
        }
    }
}

/// The point of a [`run_ours`] result, its statistics moved into `stats` (so that a run through
/// a twin, which returns only the point, keeps them).
pub(crate) fn keep_stats<G>(
    stats: &mut Option<Stats>,
    r: Result<(G, Option<Stats>), MsmError>,
) -> Result<G, MsmError> {
    r.map(|(q, s)| {
        *stats = s;
        q
    })
}

/// The window width the run used: the one the MSM reported, else the one it was given, else the
/// one an MSM of this many points picks (with or without GLV).
pub(crate) fn window_used<G: MsmGroup>(
    points: &[G::Affine],
    scalars: &[Scalar],
    o: &Opts,
    stats: Option<&Stats>,
) -> u32 {
    if let Some(c) = stats.and_then(|s| s.window).or(o.window) {
        return c;
    }
    let n = points.len().max(1);
    match o
        .glv
        .then(|| G::glv_expand(&points[..1], &scalars[..1]))
        .flatten()
    {
        Some(split) => window_size(2 * n, &split.bound),
        None => window_size(n, &G::SCALAR_MODULUS),
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
