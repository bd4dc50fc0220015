//! Twisted Edwards curves a·x² + y² = 1 + d·x²·y² with a = −1: affine and extended coordinates.
//!
//! Extended coordinates (X : Y : T : Z) with x = X/Z, y = Y/Z, T = X·Y/Z are from Hisil, Wong,
//! Carter, Dawson, "Twisted Edwards Curves Revisited", ASIACRYPT 2008, §3; the formulas are the
//! EFD's (<https://hyperelliptic.org/EFD/g1p/auto-twisted-extended-1.html>, the a = −1 page).
//! With a = −1 a square and d a non-square in the base field (checked in the tests for
//! Ed-on-BLS12-377) the addition law is complete: it needs no case analysis at all, so P + P,
//! P + (−P) and the identity go through the same formula.

use core::fmt;

use crate::field::PrimeField;
use crate::{Canonical, Group};

/// A twisted Edwards curve −x² + y² = 1 + d·x²·y² over `Base`. a = −1 is built into the formulas.
pub trait TeCurve: 'static + Copy + Clone + fmt::Debug + PartialEq + Eq + Send + Sync {
    /// The base field.
    type Base: PrimeField;
    /// Stable name, as the `msm` CLI spells it.
    const NAME: &'static str;
    /// The coefficient d.
    const D: Self::Base;
    /// The generator's x (arkworks' generator).
    const GENERATOR_X: Self::Base;
    /// The generator's y.
    const GENERATOR_Y: Self::Base;
    /// The order r of the generator (the scalar field's modulus), canonical words.
    const SCALAR_MODULUS: Canonical;
    /// The cofactor h, #E(F_p) = h·r, canonical words (4 for Ed-on-BLS12-377).
    const COFACTOR: Canonical;
}

/// An affine point (x, y); the identity is (0, 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine<C: TeCurve> {
    /// x.
    pub x: C::Base,
    /// y.
    pub y: C::Base,
}

impl<C: TeCurve> Affine<C> {
    /// The identity (0, 1).
    pub const IDENTITY: Self = Affine {
        x: C::Base::ZERO,
        y: C::Base::ONE,
    };

    /// The generator.
    pub const GENERATOR: Self = Affine {
        x: C::GENERATOR_X,
        y: C::GENERATOR_Y,
    };

    /// (x, y) if it is on the curve.
    pub fn new(x: C::Base, y: C::Base) -> Option<Self> {
        let p = Affine { x, y };
        p.is_on_curve().then_some(p)
    }

    /// (x, y) without the curve check.
    pub const fn new_unchecked(x: C::Base, y: C::Base) -> Self {
        Affine { x, y }
    }

    /// −x² + y² = 1 + d·x²·y².
    pub fn is_on_curve(&self) -> bool {
        let xx = self.x.square();
        let yy = self.y.square();
        yy - xx == C::Base::ONE + C::D * xx * yy
    }

    /// Is this (0, 1)?
    pub fn is_identity(&self) -> bool {
        self.x.is_zero() && self.y == C::Base::ONE
    }

    /// −(x, y) = (−x, y).
    pub fn neg(&self) -> Self {
        Affine {
            x: -self.x,
            y: self.y,
        }
    }
}

// ANCHOR: extended_struct
/// Extended twisted Edwards coordinates (X : Y : T : Z), x = X/Z, y = Y/Z, T·Z = X·Y (HWCD 2008).
#[derive(Clone, Copy, Debug)]
pub struct Extended<C: TeCurve> {
    /// X.
    pub x: C::Base,
    /// Y.
    pub y: C::Base,
    /// T = X·Y/Z.
    pub t: C::Base,
    /// Z.
    pub z: C::Base,
}
// ANCHOR_END: extended_struct

impl<C: TeCurve> Extended<C> {
    /// The identity (0 : 1 : 0 : 1).
    pub const IDENTITY: Self = Extended {
        x: C::Base::ZERO,
        y: C::Base::ONE,
        t: C::Base::ZERO,
        z: C::Base::ONE,
    };

    // ANCHOR: extended_add
    /// Unified addition for a = −1, EFD "add-2008-hwcd-3" (g1p/auto-twisted-extended-1; Hisil et
    /// al. 2008, §3.1), with k = 2d: 8M + 1 multiplication by k. Complete on this curve, so there
    /// is no special case.
    pub fn add_2008_hwcd_3(&self, q: &Self) -> Self {
        let k = C::D.double();
        let a = (self.y - self.x) * (q.y - q.x);
        let b = (self.y + self.x) * (q.y + q.x);
        let c = self.t * k * q.t;
        let d = (self.z * q.z).double();
        let e = b - a;
        let f = d - c;
        let g = d + c;
        let h = b + a;
        Extended {
            x: e * f,
            y: g * h,
            t: e * h,
            z: f * g,
        }
    }
    // ANCHOR_END: extended_add

    // ANCHOR: extended_madd
    /// Mixed addition extended + affine, EFD "madd-2008-hwcd-3" (g1p/auto-twisted-extended-1,
    /// Z2 = 1): 7M + 1 by k, plus one M here for T2 = x2·y2 (an affine point does not carry it).
    pub fn madd_2008_hwcd_3(&self, q: &Affine<C>) -> Self {
        let k = C::D.double();
        let t2 = q.x * q.y;
        let a = (self.y - self.x) * (q.y - q.x);
        let b = (self.y + self.x) * (q.y + q.x);
        let c = self.t * k * t2;
        let d = self.z.double();
        let e = b - a;
        let f = d - c;
        let g = d + c;
        let h = b + a;
        Extended {
            x: e * f,
            y: g * h,
            t: e * h,
            z: f * g,
        }
    }
    // ANCHOR_END: extended_madd

    // ANCHOR: extended_dbl
    /// Doubling, EFD "dbl-2008-hwcd" (g1p/auto-twisted-extended-1; Hisil et al. 2008, §3.3) with
    /// a = −1, so D = a·A = −A: 4M + 4S. Does not read T.
    pub fn dbl_2008_hwcd(&self) -> Self {
        let a = self.x.square();
        let b = self.y.square();
        let c = self.z.square().double();
        let d = -a;
        let e = (self.x + self.y).square() - a - b;
        let g = d + b;
        let f = g - c;
        let h = d - b;
        Extended {
            x: e * f,
            y: g * h,
            t: e * h,
            z: f * g,
        }
    }
    // ANCHOR_END: extended_dbl
}

impl<C: TeCurve> Group for Extended<C> {
    type Affine = Affine<C>;

    fn identity() -> Self {
        Self::IDENTITY
    }
    /// X = 0 and Y = Z.
    fn is_identity(&self) -> bool {
        self.x.is_zero() && self.y == self.z
    }
    fn generator() -> Self {
        Self::from_affine(&Affine::GENERATOR)
    }
    fn add(&self, other: &Self) -> Self {
        self.add_2008_hwcd_3(other)
    }
    fn add_affine(&self, other: &Affine<C>) -> Self {
        self.madd_2008_hwcd_3(other)
    }
    fn double(&self) -> Self {
        self.dbl_2008_hwcd()
    }
    /// −(X : Y : T : Z) = (−X : Y : −T : Z).
    fn neg(&self) -> Self {
        Extended {
            x: -self.x,
            y: self.y,
            t: -self.t,
            z: self.z,
        }
    }
    fn from_affine(p: &Affine<C>) -> Self {
        Extended {
            x: p.x,
            y: p.y,
            t: p.x * p.y,
            z: C::Base::ONE,
        }
    }
    // ANCHOR: extended_to_affine
    /// (X/Z, Y/Z) with one inversion. Z is never zero for a point of the curve.
    fn to_affine(&self) -> Affine<C> {
        let zi = self
            .z
            .inverse()
            .expect("extended twisted Edwards point with Z = 0");
        Affine::new_unchecked(self.x * zi, self.y * zi)
    }
    // ANCHOR_END: extended_to_affine
    /// Z ≠ 0, T·Z = X·Y and −X² + Y² = Z² + d·T² (the curve equation times Z², with T = XY/Z).
    fn is_on_curve(&self) -> bool {
        !self.z.is_zero()
            && self.t * self.z == self.x * self.y
            && self.y.square() - self.x.square() == self.z.square() + C::D * self.t.square()
    }
}

impl<C: TeCurve> PartialEq for Extended<C> {
    /// Same point: X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1.
    fn eq(&self, other: &Self) -> bool {
        self.x * other.z == other.x * self.z && self.y * other.z == other.y * self.z
    }
}
impl<C: TeCurve> Eq for Extended<C> {}
