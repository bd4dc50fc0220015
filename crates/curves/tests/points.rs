//! Every curve and coordinate system against arkworks: random points, P + P, P + (−P), the
//! identity on either side, chains of mixed additions, doubling chains, scalar multiplication.

use crate::common::{Oracle, Sw, Te, rng, words};
use ark_ec::{AdditiveGroup, CurveGroup, PrimeGroup};
use ark_ff::{PrimeField as ArkPrimeField, UniformRand, Zero};
use fastmsm_curves::Group;
use rand::Rng;

type Scalar<O> = <<O as Oracle>::Ark as PrimeGroup>::ScalarField;
type OurAffine<O> = <<O as Oracle>::G as Group>::Affine;

/// Asserts that our point is on the curve and equals arkworks' point (compared in affine).
fn same<O: Oracle>(ours: &O::G, ark: &O::Ark, what: &str) {
    assert!(ours.is_on_curve(), "{what}: result not on the curve");
    assert_eq!(
        ours.to_affine(),
        O::ours(&ark.into_affine()),
        "{what}: differs from arkworks"
    );
    assert_eq!(
        ours.is_identity(),
        ark.is_zero(),
        "{what}: identity flag differs"
    );
}

/// A random multiple of the generator: arkworks' point and ours computed independently
/// (ours by double-and-add, so its Z is not 1).
fn random_point<O: Oracle>(r: &mut impl Rng) -> (O::G, O::Ark) {
    let k = Scalar::<O>::rand(r);
    let ark = O::Ark::generator() * k;
    let ours = O::G::generator().mul_scalar(&words(&k.into_bigint()));
    (ours, ark)
}

/// A random affine point from arkworks, converted.
fn random_affine<O: Oracle>(r: &mut impl Rng) -> (OurAffine<O>, O::Ark) {
    let ark = O::Ark::generator() * Scalar::<O>::rand(r);
    (O::ours(&ark.into_affine()), ark)
}

fn random_points<O: Oracle>(seed: u64) {
    let mut r = rng(seed);
    for _ in 0..20 {
        let (ours, ark) = random_point::<O>(&mut r);
        same::<O>(&ours, &ark, "k·G");
        // affine round trip, and the converted arkworks point is on our curve
        let a = O::ours(&ark.into_affine());
        let p = O::G::from_affine(&a);
        assert!(p.is_on_curve());
        assert_eq!(
            p, ours,
            "from_affine(arkworks) == our k·G (projective equality)"
        );
        assert_eq!(p.to_affine(), a);
        // negation
        same::<O>(&ours.neg(), &-ark, "−P");
    }
}

fn addition<O: Oracle>(seed: u64) {
    let mut r = rng(seed);
    for _ in 0..20 {
        let (p, pa) = random_point::<O>(&mut r);
        let (q, qa) = random_point::<O>(&mut r);
        same::<O>(&p.add(&q), &(pa + qa), "P + Q");
        same::<O>(&q.add(&p), &(pa + qa), "Q + P");
        let (b, ba) = random_affine::<O>(&mut r);
        same::<O>(&p.add_affine(&b), &(pa + ba), "P + affine Q");
        same::<O>(&p.double(), &pa.double(), "2P");
        assert!(
            p != q && p != O::G::identity(),
            "distinct random points compare unequal"
        );
    }
}

fn exceptional_cases<O: Oracle>(seed: u64) {
    let mut r = rng(seed);
    let id = O::G::identity();
    let id_affine = id.to_affine();
    assert!(id.is_identity() && id.is_on_curve());
    assert!(id.double().is_identity(), "2·O = O");
    assert!(id.add(&id).is_identity(), "O + O = O");
    assert!(id.add_affine(&id_affine).is_identity(), "O + affine O = O");
    assert!(id.neg().is_identity(), "−O = O");
    assert_eq!(
        O::ours(&O::Ark::zero().into_affine()),
        id_affine,
        "identities agree"
    );
    for _ in 0..10 {
        let (p, pa) = random_point::<O>(&mut r);
        let a = p.to_affine();
        // the same point in another representation (Z = 1)
        let p1 = O::G::from_affine(&a);
        // projective equality: same point in two representations; P and −P share x only
        assert_eq!(p, p1, "P == P (different Z)");
        assert_ne!(p, p.neg(), "P != −P");
        assert_ne!(p1, p.neg(), "P != −P (different Z)");
        assert_ne!(p, id, "P != O");
        assert_ne!(id, p, "O != P");
        assert_eq!(p.neg().neg(), p, "−(−P) == P");
        same::<O>(&p.add(&p), &pa.double(), "P + P");
        same::<O>(&p.add(&p1), &pa.double(), "P + P (different Z)");
        same::<O>(&p1.add(&p), &pa.double(), "P (Z = 1) + P");
        same::<O>(&p.add_affine(&a), &pa.double(), "P + affine P");
        same::<O>(&p1.add_affine(&a), &pa.double(), "P (Z = 1) + affine P");
        same::<O>(&p.add(&p.neg()), &O::Ark::zero(), "P + (−P)");
        same::<O>(&p.add(&p1.neg()), &O::Ark::zero(), "P + (−P) (different Z)");
        same::<O>(
            &p.add_affine(&p.neg().to_affine()),
            &O::Ark::zero(),
            "P + affine (−P)",
        );
        same::<O>(&id.add(&p), &pa, "O + P");
        same::<O>(&p.add(&id), &pa, "P + O");
        same::<O>(&id.add_affine(&a), &pa, "O + affine P");
        same::<O>(&p.add_affine(&id_affine), &pa, "P + affine O");
    }
}

/// Mixed additions into one accumulator, compared at every step. The sequence starts with the
/// exceptional cases (O + A, A + A, 2A + (−2A), O + B) and continues with random points,
/// repeats and negations of the running sum.
fn mixed_chain<O: Oracle>(seed: u64) {
    let mut r = rng(seed);
    let (a, aa) = random_affine::<O>(&mut r);
    let (b, ba) = random_affine::<O>(&mut r);
    let minus_two_a = O::G::from_affine(&a).double().neg().to_affine();
    let mut seq: Vec<(OurAffine<O>, O::Ark)> =
        vec![(a, aa), (a, aa), (minus_two_a, -aa.double()), (b, ba)];
    for _ in 0..60 {
        seq.push(random_affine::<O>(&mut r));
    }
    let mut acc = O::G::identity();
    let mut acc_ark = O::Ark::zero();
    for (i, (pt, pt_ark)) in seq.iter().enumerate() {
        // every tenth step, add the accumulator to itself through mixed addition
        let (pt, pt_ark) = if i > 4 && i % 10 == 0 {
            (acc.to_affine(), acc_ark)
        } else {
            (*pt, *pt_ark)
        };
        // every fifteenth step, add the accumulator's negation
        let (pt, pt_ark) = if i > 4 && i % 15 == 0 {
            (acc.neg().to_affine(), -acc_ark)
        } else {
            (pt, pt_ark)
        };
        acc = acc.add_affine(&pt);
        acc_ark += pt_ark;
        same::<O>(&acc, &acc_ark, &format!("mixed chain step {i}"));
    }
}

fn doubling_chain<O: Oracle>(seed: u64) {
    let mut r = rng(seed);
    let (mut p, mut pa) = random_point::<O>(&mut r);
    for i in 0..200 {
        p = p.double();
        pa.double_in_place();
        if i % 20 == 19 {
            same::<O>(&p, &pa, &format!("doubling chain step {i}"));
        }
    }
    same::<O>(&p, &pa, "doubling chain end");
}

fn scalar_mul<O: Oracle>(seed: u64) {
    let mut r = rng(seed);
    let g = O::G::generator();
    let ga = O::Ark::generator();
    same::<O>(&g, &ga, "generator");
    let (p, pa) = random_point::<O>(&mut r);
    let modulus = words(&Scalar::<O>::MODULUS);
    let mut r_minus_1 = modulus.clone();
    r_minus_1[0] -= 1; // r is odd
    let fixed: Vec<Vec<u64>> = vec![
        vec![],
        vec![0],
        vec![1],
        vec![2],
        vec![3],
        r_minus_1,
        modulus,
        vec![u64::MAX; 4],
    ];
    for k in &fixed {
        same::<O>(&p.mul_scalar(k), &pa.mul_bigint(k), &format!("[{k:x?}]·P"));
    }
    for _ in 0..10 {
        let k = Scalar::<O>::rand(&mut r);
        same::<O>(&p.mul_scalar(&words(&k.into_bigint())), &(pa * k), "k·P");
    }
    // the generator has order r
    assert!(g.mul_scalar(&words(&Scalar::<O>::MODULUS)).is_identity());
}

/// The six suites for one coordinate system of one curve in one representation, a module named
/// for the coordinates.
macro_rules! suite {
    ($name:ident, $oracle:ty, $seed:expr) => {
        pub mod $name {
            use super::*;
            type O = $oracle;
            #[test]
            fn random_points() {
                crate::points::random_points::<O>($seed);
            }
            #[test]
            fn addition() {
                crate::points::addition::<O>($seed + 1);
            }
            #[test]
            fn exceptional_cases() {
                crate::points::exceptional_cases::<O>($seed + 2);
            }
            #[test]
            fn mixed_chain() {
                crate::points::mixed_chain::<O>($seed + 3);
            }
            #[test]
            fn doubling_chain() {
                crate::points::doubling_chain::<O>($seed + 4);
            }
            #[test]
            fn scalar_mul() {
                crate::points::scalar_mul::<O>($seed + 5);
            }
        }
    };
}

/// One curve through the same suites in each representation (`mont64`, `radix30`, `radix51`:
/// the curve's twin in that backend, against the same arkworks curve), for the coordinate
/// systems listed: test names read `bls12_377::radix30::xyzz::mixed_chain`.
macro_rules! curve_suites {
    (sw $curve:ident: $c:ty, $ark:ty, $seed:expr;
        $($repr:ident = $b:ty: [$($coords:ident = $g:ident),+];)+) => {
        mod $curve {
            use super::*;
            $(pub mod $repr {
                use super::*;
                type C = <$c as SwTwin<$b>>::Twin;
                $(suite!($coords, Sw<$g<C>, C, $ark>, $seed);)+
            })+
        }
    };
    (te $curve:ident: $c:ty, $ark:ty, $seed:expr; $($repr:ident = $b:ty;)+) => {
        mod $curve {
            use super::*;
            $(pub mod $repr {
                use super::*;
                type C = <$c as TeTwin<$b>>::Twin;
                suite!(extended, Te<C, $ark>, $seed);
            })+
        }
    };
}

use fastmsm_curves::field::{Mont64, Radix30, Radix51};
use fastmsm_curves::sw::{Jacobian, Xyzz};
use fastmsm_curves::twin::{SwTwin, TeTwin};
use fastmsm_curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377};

// Both coordinate systems natively; the twins in XYZZ (the MSM's buckets), and BLS12-377's in
// Jacobian too.
curve_suites!(sw bn254: Bn254, ark_bn254::g1::Config, 100;
    mont64 = Mont64: [jacobian = Jacobian, xyzz = Xyzz];
    radix30 = Radix30: [xyzz = Xyzz];
    radix51 = Radix51: [xyzz = Xyzz];
);
curve_suites!(sw bls12_377: Bls12_377, ark_bls12_377::g1::Config, 300;
    mont64 = Mont64: [jacobian = Jacobian, xyzz = Xyzz];
    radix30 = Radix30: [jacobian = Jacobian, xyzz = Xyzz];
    radix51 = Radix51: [jacobian = Jacobian, xyzz = Xyzz];
);
curve_suites!(sw bls12_381: Bls12_381, ark_bls12_381::g1::Config, 500;
    mont64 = Mont64: [jacobian = Jacobian, xyzz = Xyzz];
    radix30 = Radix30: [xyzz = Xyzz];
    radix51 = Radix51: [xyzz = Xyzz];
);
curve_suites!(te ed_on_bls12_377: EdBls12_377, ark_ed_on_bls12_377::EdwardsConfig, 700;
    mont64 = Mont64;
    radix30 = Radix30;
    radix51 = Radix51;
);

/// On a twisted Edwards curve, (x, −y) = −P + (0, −1) is also on the curve (outside the
/// prime-order subgroup): equality must look at y as well as x.
#[test]
fn ed_bls12_377_equality_reads_y() {
    use fastmsm_curves::PrimeField;
    use fastmsm_curves::te::{Affine, Extended};
    type F = <EdBls12_377 as fastmsm_curves::te::TeCurve>::Base;
    let mut r = rng(800);
    let (p, _) = random_affine::<Te<EdBls12_377, ark_ed_on_bls12_377::EdwardsConfig>>(&mut r);
    let q = Affine::<EdBls12_377>::new(p.x, -p.y).expect("(x, −y) is on the curve");
    let t = Affine::<EdBls12_377>::new(F::ZERO, -F::ONE).expect("(0, −1) has order 2");
    let ep = Extended::from_affine(&p);
    assert_ne!(ep, Extended::from_affine(&q));
    assert_eq!(
        ep.neg().add_affine(&t),
        Extended::from_affine(&q),
        "−P + (0, −1) = (x, −y)"
    );
    assert!(
        Extended::from_affine(&t).double().is_identity(),
        "2·(0, −1) = O"
    );
}
