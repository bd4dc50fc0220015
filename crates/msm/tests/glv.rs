//! GLV: the derived roots and their pairing, the endomorphism against arkworks' scalar
//! multiplication, the decomposition against exact big-integer arithmetic, and the GLV MSM against
//! `ark_ec::VariableBaseMSM` on the three curves that have the endomorphism.

use crate::common::{
    ArkScalar, Bls377O, Bls381O, Bn254O, EdO, Oracle, adversarial_inputs, ark_msm, ark_scalar,
    r_minus_one, random_points, random_scalars, rng,
};
use ark_ec::CurveGroup;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te;
use fastmsm_curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377, Group};
use fastmsm_msm::glv::{Glv, Split, big_to_words, glv_of, words_to_big};
use fastmsm_msm::{
    Accumulation, Algorithm, CpuGroup, EdBls12_377G, MsmConfig, MsmError, MsmGroup, Points,
    Reduction, Scalar, Window, msm,
};
use num_bigint::{BigInt, BigUint};
use rand::Rng;

fn r_of<C: SwCurve>() -> BigUint {
    words_to_big(&C::SCALAR_MODULUS)
}

fn glv<C: SwCurve>() -> &'static Glv<C> {
    glv_of::<C>().unwrap_or_else(|| panic!("{} has a GLV endomorphism", C::NAME))
}

/// β³ = 1 ≠ β in F_p, λ³ ≡ 1 ≢ λ (mod r), λ² + λ + 1 ≡ 0, φ(G) = λ·G, and the other root β²
/// does *not* act as λ: the pairing is a real choice, made by the generator check.
fn roots_are_paired<C: SwCurve>() {
    let g = glv::<C>();
    let beta = g.beta();
    assert_ne!(beta, C::Base::ONE, "{}: β = 1", C::NAME);
    assert_eq!(beta.square() * beta, C::Base::ONE, "{}: β³", C::NAME);
    let r = r_of::<C>();
    let lambda = words_to_big(&g.lambda());
    let one = BigUint::from(1u8);
    assert!(lambda < r && lambda != one, "{}: λ", C::NAME);
    assert_eq!(
        lambda.modpow(&BigUint::from(3u8), &r),
        one,
        "{}: λ³",
        C::NAME
    );
    assert_eq!((&lambda * &lambda + &lambda + 1u8) % &r, BigUint::from(0u8));

    let generator = sw::Affine::<C>::GENERATOR;
    let lambda_g = sw::Jacobian::<C>::from_affine(&generator)
        .mul_scalar(&g.lambda())
        .to_affine();
    assert_eq!(
        g.endomorphism(&generator),
        lambda_g,
        "{}: φ(G) = λG",
        C::NAME
    );
    let other = sw::Affine::<C>::new_unchecked(beta.square() * generator.x, generator.y);
    assert!(other.is_on_curve());
    assert_ne!(other, lambda_g, "{}: β² must go with λ², not λ", C::NAME);
    assert!(g.endomorphism(&sw::Affine::IDENTITY).infinity);
}

#[test]
fn roots_are_cube_roots_of_unity_and_paired() {
    roots_are_paired::<Bn254>();
    roots_are_paired::<Bls12_377>();
    roots_are_paired::<Bls12_381>();
}

/// φ(P) equals arkworks' P·λ for random points of the subgroup.
fn endomorphism_vs_arkworks<O: Oracle, C: SwCurve>(seed: u64)
where
    O::G: MsmGroup<Affine = sw::Affine<C>>,
{
    let g = glv::<C>();
    let lambda: ArkScalar<O> = ark_scalar(&g.lambda());
    for p in random_points::<O>(20, seed) {
        let want = O::ours(&(p * lambda).into_affine());
        assert_eq!(g.endomorphism(&O::ours(&p)), want, "{}", C::NAME);
        // and φ(φ(P)) + φ(P) + P = 0, from λ² + λ + 1 ≡ 0
        let q = O::ours(&p);
        let sum = sw::Jacobian::<C>::from_affine(&q)
            .add_affine(&g.endomorphism(&q))
            .add_affine(&g.endomorphism(&g.endomorphism(&q)));
        assert!(sum.is_identity());
    }
}

#[test]
fn endomorphism_matches_arkworks_scalar_mul() {
    endomorphism_vs_arkworks::<Bn254O, Bn254>(1);
    endomorphism_vs_arkworks::<Bls377O, Bls12_377>(2);
    endomorphism_vs_arkworks::<Bls381O, Bls12_381>(3);
}

fn to_big(k: &Scalar) -> BigInt {
    BigInt::from(words_to_big(k))
}

/// Babai's rounding in exact rational arithmetic: c1 = round(k·b2/D), c2 = round(−k·b1/D)
/// (halves away from zero), (k1, k2) = (k, 0) − c1·v1 − c2·v2.
fn exact_split(k: &BigInt, basis: &[[BigInt; 2]; 2]) -> (BigInt, BigInt) {
    use num_bigint::Sign::Minus;
    let [[a1, b1], [a2, b2]] = basis;
    let det = a1 * b2 - a2 * b1;
    let round = |num: BigInt| {
        let q = BigInt::from((num.magnitude() * 2u8 + det.magnitude()) / (det.magnitude() * 2u8));
        if (num.sign() == Minus) != (det.sign() == Minus) {
            -q
        } else {
            q
        }
    };
    let c1 = round(k * b2);
    let c2 = round(-(k * b1));
    (k - &c1 * a1 - &c2 * a2, -(&c1 * b1) - &c2 * b2)
}

/// The edge scalars of the decomposition tests: 0, 1, 2, r − 1, r − 2, λ, λ ± 1, r − λ, λ²,
/// (r − 1)/2, fractions j·r/m and their neighbours, and the basis components themselves.
fn edge_scalars<C: SwCurve>() -> Vec<Scalar> {
    let r = r_of::<C>();
    let g = glv::<C>();
    let lambda = words_to_big(&g.lambda());
    let mut out: Vec<BigUint> = vec![
        0u8.into(),
        1u8.into(),
        2u8.into(),
        &r - 1u8,
        &r - 2u8,
        lambda.clone(),
        &lambda + 1u8,
        &lambda - 1u8,
        &r - &lambda,
        (&lambda * &lambda) % &r,
        (&r - 1u8) / 2u8,
        BigUint::from(1u8) << 127,
        (BigUint::from(1u8) << 128) - 1u8,
    ];
    for m in [2u32, 3, 5, 7, 1 << 16] {
        for j in 1..m.min(5) {
            let base = &r * j / m;
            out.extend([&base - 1u8, base.clone(), &base + 1u8]);
        }
    }
    for v in g.decomposer().basis().iter().flatten() {
        let x = v.to_bigint();
        let x = ((x % BigInt::from(r.clone())) + BigInt::from(r.clone())) % BigInt::from(r.clone());
        out.push(x.magnitude().clone());
    }
    out.iter().map(big_to_words).collect()
}

/// Uniform random scalars below r.
fn random_below_r<C: SwCurve>(count: usize, seed: u64) -> Vec<Scalar> {
    let mut rg = rng(seed);
    let r: Scalar = C::SCALAR_MODULUS[..4].try_into().unwrap();
    let mut out = Vec::new();
    while out.len() < count {
        let k: Scalar = [rg.r#gen(), rg.r#gen(), rg.r#gen(), rg.r#gen::<u64>() >> 1];
        if fastmsm_msm::scalar::less_than(&k, &r) {
            out.push(k);
        }
    }
    out
}

/// k ≡ k1 + k2·λ (mod r), |k1| ≤ B1, |k2| ≤ B2, both bounds about √r; the fixed-width result
/// equals exact Babai rounding on random scalars, and on the edges differs from it by at most one
/// in each rounded coefficient: k = (r + 1)/2 makes a coefficient b/2 + b/(2r), within 2^−190 of
/// a half for odd b, finer than the fixed point resolves (k·2^−385 < 2^−130).
fn decomposition<C: SwCurve>(seed: u64) {
    let g = glv::<C>();
    let r = BigInt::from(r_of::<C>());
    let lambda = to_big(&g.lambda());
    let d = g.decomposer();
    let basis = d.basis().map(|v| v.map(|x| x.to_bigint()));
    for v in &basis {
        assert_eq!(
            (&v[0] + &v[1] * &lambda) % &r,
            BigInt::from(0),
            "basis vector in the lattice"
        );
    }
    let det = &basis[0][0] * &basis[1][1] - &basis[1][0] * &basis[0][1];
    assert_eq!(
        det.magnitude(),
        r.magnitude(),
        "{}: the basis spans the lattice",
        C::NAME
    );
    let [b1, b2] = d.bounds().map(|b| to_big(&b));
    let half = r.bits().div_ceil(2) as u32;
    assert!(
        d.half_bits() <= half + 1,
        "{}: half-length scalars of {} bits for a {}-bit r",
        C::NAME,
        d.half_bits(),
        r.bits()
    );
    let mut widest = 0;
    let edges = edge_scalars::<C>();
    let randoms = random_below_r::<C>(400, seed);
    let mut off_by_one = 0;
    for (k, is_edge) in edges
        .iter()
        .map(|k| (k, true))
        .chain(randoms.iter().map(|k| (k, false)))
    {
        let Split { k1, k2 } = g.decompose(k);
        let (x1, x2) = (k1.to_bigint(), k2.to_bigint());
        let kb = to_big(k);
        assert_eq!(
            ((&x1 + &x2 * &lambda - &kb) % &r),
            BigInt::from(0),
            "{}: k1 + k2·λ ≢ k for k = {kb}",
            C::NAME
        );
        assert!(
            x1.magnitude() <= b1.magnitude(),
            "{}: |k1| = {x1} over the bound for k = {kb}",
            C::NAME
        );
        assert!(
            x2.magnitude() <= b2.magnitude(),
            "{}: |k2| = {x2} over the bound for k = {kb}",
            C::NAME
        );
        let (e1, e2) = exact_split(&kb, &basis);
        if (&x1, &x2) != (&e1, &e2) {
            assert!(
                is_edge,
                "{}: k = {kb}: ({x1}, {x2}) is not Babai's ({e1}, {e2})",
                C::NAME
            );
            let near = [-1, 0, 1].iter().any(|&c1| {
                [-1, 0, 1].iter().any(|&c2| {
                    let (c1, c2) = (BigInt::from(c1), BigInt::from(c2));
                    &x1 - &e1 == &c1 * &basis[0][0] + &c2 * &basis[1][0]
                        && &x2 - &e2 == &c1 * &basis[0][1] + &c2 * &basis[1][1]
                })
            });
            assert!(
                near,
                "{}: k = {kb}: more than one off Babai's rounding",
                C::NAME
            );
            eprintln!("{}: near-tie at k = {kb}", C::NAME);
            off_by_one += 1;
        }
        // zero is never negative
        let zero = BigInt::from(0);
        assert!(!(k1.negative && x1 == zero), "−0 for k1");
        assert!(!(k2.negative && x2 == zero), "−0 for k2");
        widest = widest.max(x1.bits()).max(x2.bits());
    }
    eprintln!(
        "{}: r has {} bits, bounds {} / {} bits, widest half seen {widest} bits, {off_by_one} near-ties",
        C::NAME,
        r.bits(),
        b1.bits(),
        b2.bits()
    );
}

#[test]
fn decomposition_round_trip_and_bound() {
    decomposition::<Bn254>(10);
    decomposition::<Bls12_377>(11);
    decomposition::<Bls12_381>(12);
}

fn glv_configs() -> Vec<(&'static str, MsmConfig)> {
    // every input here is a multiple of the generator: in the subgroup, as GLV needs
    let glv = MsmConfig {
        glv: true,
        points: Points::InSubgroupUnchecked,
        algorithm: Algorithm::pippenger(),
        ..MsmConfig::default()
    };
    vec![
        ("GLV, projective", glv),
        (
            "GLV, batch-affine",
            MsmConfig {
                algorithm: Algorithm::batch_affine(),
                ..glv
            },
        ),
        (
            "GLV, CSR + SMVP, c = 5",
            MsmConfig {
                algorithm: Algorithm::Pippenger {
                    accumulation: Accumulation::Csr,
                    reduction: Reduction::RunningSum,
                },
                window: Window::Fixed(5),
                ..glv
            },
        ),
        (
            "GLV, all-affine",
            MsmConfig {
                algorithm: MsmConfig::default().algorithm,
                ..glv
            },
        ),
    ]
}

/// Scalars aimed at the decomposition: λ and r − λ (k2 = ±1 territory), small scalars (k2 = 0),
/// multiples of λ, and r − 1.
fn glv_scalars<C: SwCurve>(n: usize, seed: u64) -> Vec<Scalar> {
    let g = glv::<C>();
    let r = r_of::<C>();
    let lambda = words_to_big(&g.lambda());
    let mut rg = rng(seed);
    (0..n)
        .map(|i| {
            let b = match i % 5 {
                0 => lambda.clone(),
                1 => &r - &lambda,
                2 => BigUint::from(rg.r#gen::<u64>()),
                3 => (&lambda * BigUint::from(rg.r#gen::<u32>())) % &r,
                _ => &r - 1u8,
            };
            big_to_words(&b)
        })
        .collect()
}

const SIZES: [usize; 6] = [0, 1, 2, 3, 100, 1000];

fn glv_msm<O: Oracle, C: SwCurve>(seed: u64)
where
    O::G: CpuGroup<Affine = sw::Affine<C>>,
{
    let base = random_points::<O>(*SIZES.last().unwrap(), seed);
    for (k, &n) in SIZES.iter().enumerate() {
        let mut cases = adversarial_inputs::<O>(n, &base, seed + k as u64);
        cases.push((
            "GLV-aimed scalars",
            base[..n].to_vec(),
            glv_scalars::<C>(n, seed),
        ));
        let mut pts = base[..n].to_vec();
        // P next to λ·P: the second half of one point's split meets the first half of the other's
        let g = glv::<C>();
        let lambda: ArkScalar<O> = ark_scalar(&g.lambda());
        for i in (1..n).step_by(2) {
            pts[i] = (pts[i - 1] * lambda).into_affine();
        }
        cases.push(("P, λP pairs", pts, random_scalars::<O>(n, seed + 99)));
        for (what, pts, scalars) in cases {
            let want = ark_msm::<O>(&pts, &scalars);
            let ours: Vec<_> = pts.iter().map(O::ours).collect();
            for (how, cfg) in glv_configs() {
                let got: O::G = msm(&ours, &scalars, &cfg).unwrap().sum;
                assert!(got.is_on_curve());
                assert_eq!(got.to_affine(), want, "{}: n = {n}, {what}, {how}", C::NAME);
            }
        }
    }
}

#[test]
fn glv_msm_bn254() {
    glv_msm::<Bn254O, Bn254>(1000);
}

#[test]
fn glv_msm_bls12_377() {
    glv_msm::<Bls377O, Bls12_377>(2000);
}

#[test]
fn glv_msm_bls12_381() {
    glv_msm::<Bls381O, Bls12_381>(3000);
}

/// The expanded MSM has 2n points and scalars below the half-length bound, and the bound is
/// half of r's width (plus at most one bit).
#[test]
fn expansion_halves_the_scalars() {
    let g = glv::<Bls12_377>();
    let base = random_points::<Bls377O>(50, 5);
    let ours: Vec<_> = base.iter().map(Bls377O::ours).collect();
    let mut scalars = random_scalars::<Bls377O>(50, 5);
    scalars[0] = r_minus_one::<Bls377O>();
    let e = g.expand(&ours, &scalars);
    assert_eq!((e.points.len(), e.scalars.len()), (100, 100));
    let bits = fastmsm_msm::scalar::bit_len(&e.bound) - 1;
    assert_eq!(bits, g.decomposer().half_bits());
    assert!(bits <= 128, "BLS12-377: {bits}-bit halves");
    assert!(
        e.scalars
            .iter()
            .all(|k| fastmsm_msm::scalar::less_than(k, &e.bound))
    );
}

#[test]
fn ed_on_bls12_377_refuses_glv() {
    let base = random_points::<EdO>(3, 6);
    let ours: Vec<_> = base.iter().map(EdO::ours).collect();
    let cfg = MsmConfig {
        glv: true,
        ..MsmConfig::default()
    };
    let err = MsmError::NoEndomorphism {
        curve: "ed-on-bls12-377",
    };
    assert_eq!(
        msm(&ours, &[[1, 0, 0, 0]; 3], &cfg).err(),
        Some(err.clone())
    );
    assert_eq!(
        msm::<te::Affine<EdBls12_377>>(&[], &[], &cfg).err(),
        Some(err.clone())
    );
    assert!(err.to_string().contains("no GLV endomorphism"));
    assert!(EdBls12_377G::glv_expand(&ours, &[[1, 0, 0, 0]; 3]).is_none());
    // the plain path still works
    assert!(msm(&ours, &[[1, 0, 0, 0]; 3], &MsmConfig::default()).is_ok());
}

/// The point outside the subgroup shows the GLV precondition: T = (−1, 0) on BLS12-377's curve
/// has order 2, so λ·T is T or the identity, while φ(T) = (−β, 0) is neither.
#[test]
fn endomorphism_is_lambda_only_on_the_subgroup() {
    type F = <Bls12_377 as SwCurve>::Base;
    let g = glv::<Bls12_377>();
    let t = sw::Affine::<Bls12_377>::new(-F::ONE, F::ZERO).unwrap();
    let lambda_t = sw::Jacobian::<Bls12_377>::from_affine(&t)
        .mul_scalar(&g.lambda())
        .to_affine();
    assert_ne!(g.endomorphism(&t), lambda_t);
}
