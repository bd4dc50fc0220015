//! Counting field operations: how many multiplications, squarings, additions and inversions an
//! MSM really performs.
//!
//! [`Counted<F>`] is a field that behaves exactly like `F` and counts each operation in
//! thread-local counters; [`CountedSw`] and [`CountedTe`] are the curves over it (their constants
//! are the original ones, wrapped). Because the MSM code is generic over the field, running it on
//! the counted curve counts the operations of the very code that runs uncounted elsewhere, not a
//! model of it. [`count_ops`] resets the counters, runs a closure and returns what it counted;
//! [`crate::MsmConfig::count_ops`] does that for one MSM.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, Mul, Neg, Sub};

use fastmsm_curves::field::PrimeField;
use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};
use fastmsm_curves::{Canonical, Group};
use fastmsm_mont::FieldParams;

use crate::MsmGroup;

/// Field operations counted by [`count_ops`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// General products a·b.
    pub mul: u64,
    /// Squarings a².
    pub square: u64,
    /// Additions, subtractions, doublings and negations.
    pub add: u64,
    /// Inversions (each one a full exponentiation: Fermat's little theorem).
    pub inverse: u64,
}

thread_local! {
    static COUNTS: Cell<OpCounts> = const { Cell::new(OpCounts { mul: 0, square: 0, add: 0, inverse: 0 }) };
}

#[inline(always)]
fn bump(f: impl FnOnce(&mut OpCounts)) {
    COUNTS.with(|c| {
        let mut v = c.get();
        f(&mut v);
        c.set(v);
    });
}

/// Runs `f` with the counters reset and returns its result and what [`Counted`] fields did.
pub fn count_ops<R>(f: impl FnOnce() -> R) -> (R, OpCounts) {
    COUNTS.with(|c| c.set(OpCounts::default()));
    let r = f();
    (r, COUNTS.with(|c| c.get()))
}

/// `F`, with every operation counted.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Counted<F>(pub F);

impl<F: PrimeField> fmt::Debug for Counted<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<F: PrimeField> Add for Counted<F> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        bump(|c| c.add += 1);
        Counted(self.0 + rhs.0)
    }
}
impl<F: PrimeField> Sub for Counted<F> {
    type Output = Self;
    #[inline(always)]
    #[allow(clippy::suspicious_arithmetic_impl)] // the `+=` counts; the operation is delegated
    fn sub(self, rhs: Self) -> Self {
        bump(|c| c.add += 1);
        Counted(self.0 - rhs.0)
    }
}
impl<F: PrimeField> Neg for Counted<F> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        bump(|c| c.add += 1);
        Counted(-self.0)
    }
}
impl<F: PrimeField> Mul for Counted<F> {
    type Output = Self;
    #[inline(always)]
    #[allow(clippy::suspicious_arithmetic_impl)] // the `+=` counts; the operation is delegated
    fn mul(self, rhs: Self) -> Self {
        bump(|c| c.mul += 1);
        Counted(self.0 * rhs.0)
    }
}

impl<F: PrimeField> PrimeField for Counted<F> {
    const ZERO: Self = Counted(F::ZERO);
    const ONE: Self = Counted(F::ONE);
    fn params() -> &'static FieldParams {
        F::params()
    }
    fn double(&self) -> Self {
        bump(|c| c.add += 1);
        Counted(self.0.double())
    }
    fn square(&self) -> Self {
        bump(|c| c.square += 1);
        Counted(self.0.square())
    }
    fn inverse(&self) -> Option<Self> {
        bump(|c| c.inverse += 1);
        self.0.inverse().map(Counted)
    }
    fn pow(&self, e: &[u64]) -> Self {
        Counted(self.0.pow(e))
    }
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
    fn from_canonical(x: &Canonical) -> Option<Self> {
        F::from_canonical(x).map(Counted)
    }
    fn to_canonical(&self) -> Canonical {
        self.0.to_canonical()
    }
    fn from_u64(x: u64) -> Self {
        Counted(F::from_u64(x))
    }
}

/// The short Weierstrass curve `C` over [`Counted`] field elements.
pub struct CountedSw<C>(PhantomData<C>);
/// The twisted Edwards curve `C` over [`Counted`] field elements.
pub struct CountedTe<C>(PhantomData<C>);

macro_rules! marker_traits {
    ($t:ident) => {
        impl<C> Clone for $t<C> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<C> Copy for $t<C> {}
        impl<C> PartialEq for $t<C> {
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }
        impl<C> Eq for $t<C> {}
        impl<C> fmt::Debug for $t<C> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($t))
            }
        }
    };
}
marker_traits!(CountedSw);
marker_traits!(CountedTe);

impl<C: SwCurve> SwCurve for CountedSw<C> {
    type Base = Counted<C::Base>;
    const NAME: &'static str = C::NAME;
    const B: Counted<C::Base> = Counted(C::B);
    const GENERATOR_X: Counted<C::Base> = Counted(C::GENERATOR_X);
    const GENERATOR_Y: Counted<C::Base> = Counted(C::GENERATOR_Y);
    const SCALAR_MODULUS: Canonical = C::SCALAR_MODULUS;
    const COFACTOR: Canonical = C::COFACTOR;
}

impl<C: TeCurve> TeCurve for CountedTe<C> {
    type Base = Counted<C::Base>;
    const NAME: &'static str = C::NAME;
    const D: Counted<C::Base> = Counted(C::D);
    const GENERATOR_X: Counted<C::Base> = Counted(C::GENERATOR_X);
    const GENERATOR_Y: Counted<C::Base> = Counted(C::GENERATOR_Y);
    const SCALAR_MODULUS: Canonical = C::SCALAR_MODULUS;
    const COFACTOR: Canonical = C::COFACTOR;
}

/// A group with a counted twin.
pub trait CountableGroup: MsmGroup {
    /// The same group over [`Counted`] field elements.
    type Counted: MsmGroup;
    /// An input point, wrapped.
    fn affine_to_counted(p: &Self::Affine) -> <Self::Counted as Group>::Affine;
    /// A result, unwrapped.
    fn from_counted(p: &Self::Counted) -> Self;
}

impl<C: SwCurve> CountableGroup for sw::Xyzz<C> {
    type Counted = sw::Xyzz<CountedSw<C>>;
    fn affine_to_counted(p: &sw::Affine<C>) -> sw::Affine<CountedSw<C>> {
        sw::Affine {
            x: Counted(p.x),
            y: Counted(p.y),
            infinity: p.infinity,
        }
    }
    fn from_counted(p: &sw::Xyzz<CountedSw<C>>) -> Self {
        sw::Xyzz {
            x: p.x.0,
            y: p.y.0,
            zz: p.zz.0,
            zzz: p.zzz.0,
        }
    }
}

impl<C: SwCurve> CountableGroup for sw::Jacobian<C> {
    type Counted = sw::Jacobian<CountedSw<C>>;
    fn affine_to_counted(p: &sw::Affine<C>) -> sw::Affine<CountedSw<C>> {
        sw::Affine {
            x: Counted(p.x),
            y: Counted(p.y),
            infinity: p.infinity,
        }
    }
    fn from_counted(p: &sw::Jacobian<CountedSw<C>>) -> Self {
        sw::Jacobian {
            x: p.x.0,
            y: p.y.0,
            z: p.z.0,
        }
    }
}

impl<C: TeCurve> CountableGroup for te::Extended<C> {
    type Counted = te::Extended<CountedTe<C>>;
    fn affine_to_counted(p: &te::Affine<C>) -> te::Affine<CountedTe<C>> {
        te::Affine::new_unchecked(Counted(p.x), Counted(p.y))
    }
    fn from_counted(p: &te::Extended<CountedTe<C>>) -> Self {
        te::Extended {
            x: p.x.0,
            y: p.y.0,
            t: p.t.0,
            z: p.z.0,
        }
    }
}

/// An MSM run on the counted twin: the sum and the field operations it took, from the
/// decomposition to the final Horner step.
pub(crate) fn count_via<G: CountableGroup>(
    points: &[G::Affine],
    run: impl FnOnce(&[<G::Counted as Group>::Affine]) -> G::Counted,
) -> (G, OpCounts) {
    let wrapped: Vec<_> = points.iter().map(G::affine_to_counted).collect();
    let (q, counts) = count_ops(|| run(&wrapped));
    (G::from_counted(&q), counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bls12_377G1, EdBls12_377G};

    #[test]
    fn counts_one_mixed_addition() {
        // XYZZ + affine, generic case: EFD madd-2008-s is 8M + 2S.
        let g = Bls12_377G1::generator();
        let p = g.double().double();
        let q = <Bls12_377G1 as CountableGroup>::affine_to_counted(&g.to_affine());
        let pc = <Bls12_377G1 as CountableGroup>::Counted::from_affine(
            &<Bls12_377G1 as CountableGroup>::affine_to_counted(&p.to_affine()),
        )
        .double();
        let (sum, n) = count_ops(|| pc.add_affine(&q));
        assert_eq!((n.mul, n.square, n.inverse), (8, 2, 0));
        assert_eq!(
            <Bls12_377G1 as CountableGroup>::from_counted(&sum),
            p.double().add_affine(&g.to_affine())
        );
        // Extended twisted Edwards madd: 7M + 1 by k (counted as a product) + 1M for T2 = x2·y2.
        let e = EdBls12_377G::generator();
        let ec = <EdBls12_377G as CountableGroup>::Counted::from_affine(
            &<EdBls12_377G as CountableGroup>::affine_to_counted(&e.to_affine()),
        );
        let ea = <EdBls12_377G as CountableGroup>::affine_to_counted(&e.double().to_affine());
        let (_, n) = count_ops(|| ec.add_affine(&ea));
        assert_eq!((n.mul, n.square), (9, 0));
    }
}
