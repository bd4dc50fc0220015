//! GLV: half-length scalars from the endomorphism φ(x, y) = (β·x, y).
//!
//! On a short Weierstrass curve y² = x³ + b (a = 0) over F_p with p ≡ 1 (mod 3), a primitive cube
//! root of unity β ∈ F_p gives a map φ(x, y) = (β·x, y) that keeps the curve equation
//! ((βx)³ = x³) and is a group endomorphism. On the subgroup of prime order r it acts as a scalar:
//! φ(P) = λ·P with λ a primitive cube root of unity modulo r. One field multiplication thus buys
//! a multiplication by a 255-bit λ. Gallant, Lambert and Vanstone ("Faster Point Multiplication
//! on Elliptic Curves with Efficient Endomorphisms", CRYPTO 2001) split every scalar as
//! k ≡ k1 + k2·λ (mod r) with |k1|, |k2| ≈ √r, so k·P = k1·P + k2·φ(P): an MSM of n full-length
//! scalars becomes one of 2n half-length scalars, with half the windows.
//!
//! Everything here is derived, nothing typed: β and λ by `roots.rs`, paired on the generator
//! (φ(G) = λG picks which of β, β² goes with λ), the short lattice basis and the rounding
//! constants by `lattice`. [`glv_of`] derives them once per curve and keeps them.
//!
//! **Only for points of order r.** φ(P) = λP holds on the prime-order subgroup. The plain MSM
//! computes the exact integer combination for any point on the curve; the GLV path does not for
//! points outside the subgroup (such as the 2-torsion point (−1, 0) of BLS12-377's curve).
//!
//! **Not every curve has it.** Ed-on-BLS12-377 has no such cheap endomorphism, so the MSM
//! refuses the GLV option there ([`crate::MsmError::NoEndomorphism`]).

mod lattice;
mod roots;
mod wide;

use core::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use fastmsm_curves::Group;
use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
pub use lattice::{Decomposer, SignedScalar, Split, big_to_words, words_to_big};

use crate::scalar::Scalar;

/// The GLV data of one curve: β, λ and the scalar decomposer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glv<C: SwCurve> {
    beta: C::Base,
    lambda: Scalar,
    decomposer: Decomposer,
}

/// An MSM rewritten for the endomorphism: `points.len()` is twice the original n, every scalar is
/// below `bound`, and Σ scalars\[i\]·points\[i\] is the original sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlvInput<A> {
    /// ±P_i for i < n, then ±φ(P_i).
    pub points: Vec<A>,
    /// |k1_i| for i < n, then |k2_i|.
    pub scalars: Vec<Scalar>,
    /// An exclusive bound on the scalars, a power of two: what the windows must cover.
    pub bound: Scalar,
}

impl<C: SwCurve> Glv<C> {
    // ANCHOR: derive
    /// Derives the curve's GLV data, or `None` if it has no such endomorphism (p or r not
    /// ≡ 1 mod 3). Slow (modular exponentiations, a scalar multiplication, a Euclidean
    /// algorithm); [`glv_of`] runs it once per curve.
    pub fn derive() -> Option<Self> {
        let p = words_to_big(&C::Base::params().modulus);
        let r = words_to_big(&C::SCALAR_MODULUS);
        let lambda = roots::cube_root_of_unity(&r)?;
        let beta = roots::cube_root_of_unity(&p)?;
        // β and β² both give endomorphisms of order 3: one acts as λ on the subgroup, the
        // other as λ². The generator tells which.
        let lambda_words: Scalar = big_to_words(&lambda);
        let g = sw::Affine::<C>::GENERATOR;
        let lambda_g = sw::Jacobian::<C>::from_affine(&g)
            .mul_scalar(&lambda_words)
            .to_affine();
        let beta_sq = (&beta * &beta) % &p;
        [beta, beta_sq].into_iter().find_map(|b| {
            let beta = C::Base::from_canonical(&big_to_words(&b)).expect("β below p");
            let glv = Glv {
                beta,
                lambda: lambda_words,
                decomposer: Decomposer::new(&r, &lambda),
            };
            (glv.endomorphism(&g) == lambda_g).then_some(glv)
        })
    }
    // ANCHOR_END: derive

    /// β, the cube root of unity in the base field.
    pub fn beta(&self) -> C::Base {
        self.beta
    }

    /// λ, the cube root of unity modulo r with φ(P) = λ·P on the subgroup.
    pub fn lambda(&self) -> Scalar {
        self.lambda
    }

    /// The scalar decomposer (basis, bounds).
    pub fn decomposer(&self) -> &Decomposer {
        &self.decomposer
    }

    // ANCHOR: endomorphism
    /// φ(x, y) = (β·x, y): one field multiplication; the identity stays the identity.
    pub fn endomorphism(&self, p: &sw::Affine<C>) -> sw::Affine<C> {
        if p.infinity {
            return *p;
        }
        sw::Affine::new_unchecked(self.beta * p.x, p.y)
    }
    // ANCHOR_END: endomorphism

    /// k ≡ k1 + k2·λ (mod r) with |k1|, |k2| within [`Decomposer::bounds`]; `k` below r.
    pub fn decompose(&self, k: &Scalar) -> Split {
        self.decomposer.decompose(k)
    }

    // ANCHOR: expand
    /// The 2n-point MSM with the same sum: k·P = |k1|·(±P) + |k2|·(±φ(P)), the signs moved
    /// onto the points (negating an affine point is free).
    pub fn expand(&self, points: &[sw::Affine<C>], scalars: &[Scalar]) -> GlvInput<sw::Affine<C>> {
        let n = points.len();
        let mut out_points = Vec::with_capacity(2 * n);
        let mut out_scalars = Vec::with_capacity(2 * n);
        let mut second = Vec::with_capacity(n);
        for (p, k) in points.iter().zip(scalars) {
            let Split { k1, k2 } = self.decompose(k);
            let signed = |q: sw::Affine<C>, neg: bool| if neg { q.neg() } else { q };
            out_points.push(signed(*p, k1.negative));
            out_scalars.push(k1.magnitude);
            second.push((signed(self.endomorphism(p), k2.negative), k2.magnitude));
        }
        for (q, k) in second {
            out_points.push(q);
            out_scalars.push(k);
        }
        let mut bound = [0u64; 4];
        let bits = self.decomposer.half_bits() as usize;
        bound[bits / 64] = 1 << (bits % 64);
        GlvInput {
            points: out_points,
            scalars: out_scalars,
            bound,
        }
    }
    // ANCHOR_END: expand
}

/// The GLV data of curve `C`, derived on first use and kept for the life of the program; `None`
/// when the curve has no such endomorphism.
pub fn glv_of<C: SwCurve>() -> Option<&'static Glv<C>> {
    // A generic function has one static for all its instances, so the cache is keyed by type.
    type Cache = Mutex<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let entry: &'static (dyn Any + Send + Sync) = *cache
        .entry(TypeId::of::<C>())
        .or_insert_with(|| Box::leak(Box::new(Glv::<C>::derive())));
    entry
        .downcast_ref::<Option<Glv<C>>>()
        .expect("the cache is keyed by the curve type")
        .as_ref()
}
