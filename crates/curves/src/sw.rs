//! Short Weierstrass curves y² = x³ + b (a = 0): affine, Jacobian and XYZZ coordinates.
//!
//! Formulas are from the Explicit-Formulas Database (EFD), pages
//! <https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html> (Jacobian, a = 0) and
//! <https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html> (XYZZ). The EFD formulas assume
//! distinct, non-identity inputs; each function here adds the checks that make it total:
//! identity inputs, P + P (falls back to doubling) and P + (−P) (gives the identity).

use core::fmt;

use crate::field::PrimeField;
use crate::{Canonical, Group};

/// A short Weierstrass curve y² = x³ + b over `Base`, with a = 0.
pub trait SwCurve: 'static + Copy + Clone + fmt::Debug + PartialEq + Eq + Send + Sync {
    /// The base field.
    type Base: PrimeField;
    /// Stable name, as the `msm` CLI spells it.
    const NAME: &'static str;
    /// The coefficient b.
    const B: Self::Base;
    /// The generator's x (arkworks' generator).
    const GENERATOR_X: Self::Base;
    /// The generator's y.
    const GENERATOR_Y: Self::Base;
    /// The order r of the generator (the scalar field's modulus), canonical words.
    const SCALAR_MODULUS: Canonical;
    /// The cofactor h, #E(F_p) = h·r, canonical words: 1 where every curve point lies in the
    /// group of order r, otherwise points of small order lie on the curve too.
    const COFACTOR: Canonical;
}

// ANCHOR: sw_affine
/// An affine point (x, y), or the point at infinity (`infinity`, with x = y = 0).
#[derive(Clone, Copy, Debug)]
pub struct Affine<C: SwCurve> {
    /// x.
    pub x: C::Base,
    /// y.
    pub y: C::Base,
    /// Is this the point at infinity?
    pub infinity: bool,
}
// ANCHOR_END: sw_affine

impl<C: SwCurve> Affine<C> {
    /// The point at infinity.
    pub const IDENTITY: Self = Affine {
        x: C::Base::ZERO,
        y: C::Base::ZERO,
        infinity: true,
    };

    /// The generator.
    pub const GENERATOR: Self = Affine {
        x: C::GENERATOR_X,
        y: C::GENERATOR_Y,
        infinity: false,
    };

    /// (x, y) if it is on the curve.
    pub fn new(x: C::Base, y: C::Base) -> Option<Self> {
        let p = Self::new_unchecked(x, y);
        p.is_on_curve().then_some(p)
    }

    /// (x, y) without the curve check.
    pub const fn new_unchecked(x: C::Base, y: C::Base) -> Self {
        Affine {
            x,
            y,
            infinity: false,
        }
    }

    /// y² = x³ + b (the point at infinity counts as on the curve).
    pub fn is_on_curve(&self) -> bool {
        self.infinity || self.y.square() == self.x.square() * self.x + C::B
    }

    /// −P = (x, −y).
    pub fn neg(&self) -> Self {
        if self.infinity {
            *self
        } else {
            Affine::new_unchecked(self.x, -self.y)
        }
    }
}

impl<C: SwCurve> PartialEq for Affine<C> {
    fn eq(&self, other: &Self) -> bool {
        match (self.infinity, other.infinity) {
            (true, true) => true,
            (false, false) => self.x == other.x && self.y == other.y,
            _ => false,
        }
    }
}
impl<C: SwCurve> Eq for Affine<C> {}

// ANCHOR: jacobian_struct
/// Jacobian coordinates (X : Y : Z) for x = X/Z², y = Y/Z³; Z = 0 is the identity.
#[derive(Clone, Copy, Debug)]
pub struct Jacobian<C: SwCurve> {
    /// X.
    pub x: C::Base,
    /// Y.
    pub y: C::Base,
    /// Z.
    pub z: C::Base,
}
// ANCHOR_END: jacobian_struct

impl<C: SwCurve> Jacobian<C> {
    // ANCHOR: jacobian_add
    /// Jacobian addition, EFD "add-2007-bl" (g1p/auto-shortw-jacobian-0): 11M + 5S.
    /// Identity inputs are returned through; H = 0 means equal x, so the sum is a doubling
    /// (r = 0) or the identity (r ≠ 0).
    pub fn add_2007_bl(&self, q: &Self) -> Self {
        if self.is_identity() {
            return *q;
        }
        if q.is_identity() {
            return *self;
        }
        let z1z1 = self.z.square();
        let z2z2 = q.z.square();
        let u1 = self.x * z2z2;
        let u2 = q.x * z1z1;
        let s1 = self.y * q.z * z2z2;
        let s2 = q.y * self.z * z1z1;
        let h = u2 - u1;
        let r = (s2 - s1).double();
        if h.is_zero() {
            return if r.is_zero() {
                self.dbl_2009_l()
            } else {
                Self::IDENTITY
            };
        }
        let i = h.double().square();
        let j = h * i;
        let v = u1 * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (s1 * j).double();
        let z3 = ((self.z + q.z).square() - z1z1 - z2z2) * h;
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }
    // ANCHOR_END: jacobian_add

    // ANCHOR: jacobian_madd
    /// Mixed addition Jacobian + affine, EFD "madd-2007-bl" (g1p/auto-shortw-jacobian-0, Z2 = 1):
    /// 7M + 4S. Same exceptional cases as [`Jacobian::add_2007_bl`].
    pub fn madd_2007_bl(&self, q: &Affine<C>) -> Self {
        if q.infinity {
            return *self;
        }
        if self.is_identity() {
            return Self::from_affine(q);
        }
        let z1z1 = self.z.square();
        let u2 = q.x * z1z1;
        let s2 = q.y * self.z * z1z1;
        let h = u2 - self.x;
        let r = (s2 - self.y).double();
        if h.is_zero() {
            return if r.is_zero() {
                self.dbl_2009_l()
            } else {
                Self::IDENTITY
            };
        }
        let hh = h.square();
        let i = hh.double().double();
        let j = h * i;
        let v = self.x * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (self.y * j).double();
        let z3 = (self.z + h).square() - z1z1 - hh;
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }
    // ANCHOR_END: jacobian_madd

    // ANCHOR: jacobian_dbl
    /// Jacobian doubling for a = 0, EFD "dbl-2009-l" (g1p/auto-shortw-jacobian-0): 2M + 5S.
    /// The identity (Z = 0) doubles to Z3 = 2·Y·Z = 0, the identity, with no check.
    pub fn dbl_2009_l(&self) -> Self {
        let a = self.x.square();
        let b = self.y.square();
        let c = b.square();
        let d = ((self.x + b).square() - a - c).double();
        let e = a.double() + a;
        let f = e.square();
        let x3 = f - d.double();
        let y3 = e * (d - x3) - c.double().double().double();
        let z3 = (self.y * self.z).double();
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }
    // ANCHOR_END: jacobian_dbl

    /// The identity (1 : 1 : 0).
    pub const IDENTITY: Self = Jacobian {
        x: C::Base::ONE,
        y: C::Base::ONE,
        z: C::Base::ZERO,
    };
}

impl<C: SwCurve> Group for Jacobian<C> {
    type Affine = Affine<C>;

    fn identity() -> Self {
        Self::IDENTITY
    }
    fn is_identity(&self) -> bool {
        self.z.is_zero()
    }
    fn generator() -> Self {
        Self::from_affine(&Affine::GENERATOR)
    }
    fn add(&self, other: &Self) -> Self {
        self.add_2007_bl(other)
    }
    fn add_affine(&self, other: &Affine<C>) -> Self {
        self.madd_2007_bl(other)
    }
    fn double(&self) -> Self {
        self.dbl_2009_l()
    }
    fn neg(&self) -> Self {
        Jacobian {
            x: self.x,
            y: -self.y,
            z: self.z,
        }
    }
    fn from_affine(p: &Affine<C>) -> Self {
        if p.infinity {
            Self::IDENTITY
        } else {
            Jacobian {
                x: p.x,
                y: p.y,
                z: C::Base::ONE,
            }
        }
    }
    // ANCHOR: jacobian_to_affine
    /// (X/Z², Y/Z³) with one inversion.
    fn to_affine(&self) -> Affine<C> {
        let Some(zi) = self.z.inverse() else {
            return Affine::IDENTITY;
        };
        let zi2 = zi.square();
        Affine::new_unchecked(self.x * zi2, self.y * zi2 * zi)
    }
    // ANCHOR_END: jacobian_to_affine
    /// Y² = X³ + b·Z⁶ (the identity counts as on the curve).
    fn is_on_curve(&self) -> bool {
        if self.is_identity() {
            return true;
        }
        let z2 = self.z.square();
        let z6 = z2.square() * z2;
        self.y.square() == self.x.square() * self.x + C::B * z6
    }
}

impl<C: SwCurve> PartialEq for Jacobian<C> {
    /// Same point: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³, or both the identity.
    fn eq(&self, other: &Self) -> bool {
        match (self.is_identity(), other.is_identity()) {
            (true, true) => true,
            (false, false) => {
                let z1z1 = self.z.square();
                let z2z2 = other.z.square();
                self.x * z2z2 == other.x * z1z1
                    && self.y * z2z2 * other.z == other.y * z1z1 * self.z
            }
            _ => false,
        }
    }
}
impl<C: SwCurve> Eq for Jacobian<C> {}

// ANCHOR: xyzz_struct
/// XYZZ coordinates (X : Y : ZZ : ZZZ) for x = X/ZZ, y = Y/ZZZ, with ZZ³ = ZZZ²; ZZ = 0 is the
/// identity.
#[derive(Clone, Copy, Debug)]
pub struct Xyzz<C: SwCurve> {
    /// X.
    pub x: C::Base,
    /// Y.
    pub y: C::Base,
    /// ZZ.
    pub zz: C::Base,
    /// ZZZ.
    pub zzz: C::Base,
}
// ANCHOR_END: xyzz_struct

impl<C: SwCurve> Xyzz<C> {
    /// The identity (1 : 1 : 0 : 0).
    pub const IDENTITY: Self = Xyzz {
        x: C::Base::ONE,
        y: C::Base::ONE,
        zz: C::Base::ZERO,
        zzz: C::Base::ZERO,
    };

    // ANCHOR: xyzz_add
    /// XYZZ addition, EFD "add-2008-s" (g1p/auto-shortw-xyzz): 12M + 2S. P = 0 means equal x:
    /// a doubling (R = 0) or the identity (R ≠ 0).
    pub fn add_2008_s(&self, q: &Self) -> Self {
        if self.is_identity() {
            return *q;
        }
        if q.is_identity() {
            return *self;
        }
        let u1 = self.x * q.zz;
        let u2 = q.x * self.zz;
        let s1 = self.y * q.zzz;
        let s2 = q.y * self.zzz;
        let p = u2 - u1;
        let r = s2 - s1;
        if p.is_zero() {
            return if r.is_zero() {
                self.dbl_2008_s_1()
            } else {
                Self::IDENTITY
            };
        }
        let pp = p.square();
        let ppp = p * pp;
        let q_ = u1 * pp;
        let x3 = r.square() - ppp - q_.double();
        let y3 = r * (q_ - x3) - s1 * ppp;
        let zz3 = self.zz * q.zz * pp;
        let zzz3 = self.zzz * q.zzz * ppp;
        Xyzz {
            x: x3,
            y: y3,
            zz: zz3,
            zzz: zzz3,
        }
    }
    // ANCHOR_END: xyzz_add

    // ANCHOR: xyzz_madd
    /// Mixed addition XYZZ + affine, EFD "madd-2008-s" (g1p/auto-shortw-xyzz, ZZ2 = ZZZ2 = 1):
    /// 8M + 2S. The doubling case goes to [`Xyzz::mdbl_2008_s_1`] on the affine input.
    pub fn madd_2008_s(&self, q: &Affine<C>) -> Self {
        if q.infinity {
            return *self;
        }
        if self.is_identity() {
            return Self::from_affine(q);
        }
        let u2 = q.x * self.zz;
        let s2 = q.y * self.zzz;
        let p = u2 - self.x;
        let r = s2 - self.y;
        if p.is_zero() {
            return if r.is_zero() {
                Self::mdbl_2008_s_1(q)
            } else {
                Self::IDENTITY
            };
        }
        let pp = p.square();
        let ppp = p * pp;
        let q_ = self.x * pp;
        let x3 = r.square() - ppp - q_.double();
        let y3 = r * (q_ - x3) - self.y * ppp;
        let zz3 = self.zz * pp;
        let zzz3 = self.zzz * ppp;
        Xyzz {
            x: x3,
            y: y3,
            zz: zz3,
            zzz: zzz3,
        }
    }
    // ANCHOR_END: xyzz_madd

    // ANCHOR: xyzz_dbl
    /// XYZZ doubling, EFD "dbl-2008-s-1" (g1p/auto-shortw-xyzz) with a = 0, so M = 3·X²:
    /// 6M + 3S. The identity (ZZ = 0) stays ZZ3 = V·ZZ = 0.
    pub fn dbl_2008_s_1(&self) -> Self {
        let u = self.y.double();
        let v = u.square();
        let w = u * v;
        let s = self.x * v;
        let xx = self.x.square();
        let m = xx.double() + xx;
        let x3 = m.square() - s.double();
        let y3 = m * (s - x3) - w * self.y;
        let zz3 = v * self.zz;
        let zzz3 = w * self.zzz;
        Xyzz {
            x: x3,
            y: y3,
            zz: zz3,
            zzz: zzz3,
        }
    }
    // ANCHOR_END: xyzz_dbl

    // ANCHOR: xyzz_mdbl
    /// Doubling an affine point into XYZZ, EFD "mdbl-2008-s-1" (g1p/auto-shortw-xyzz,
    /// ZZ1 = ZZZ1 = 1) with a = 0: 4M + 3S.
    pub fn mdbl_2008_s_1(p: &Affine<C>) -> Self {
        if p.infinity {
            return Self::IDENTITY;
        }
        let u = p.y.double();
        let v = u.square();
        let w = u * v;
        let s = p.x * v;
        let xx = p.x.square();
        let m = xx.double() + xx;
        let x3 = m.square() - s.double();
        let y3 = m * (s - x3) - w * p.y;
        Xyzz {
            x: x3,
            y: y3,
            zz: v,
            zzz: w,
        }
    }
    // ANCHOR_END: xyzz_mdbl
}

impl<C: SwCurve> Group for Xyzz<C> {
    type Affine = Affine<C>;

    fn identity() -> Self {
        Self::IDENTITY
    }
    fn is_identity(&self) -> bool {
        self.zz.is_zero()
    }
    fn generator() -> Self {
        Self::from_affine(&Affine::GENERATOR)
    }
    fn add(&self, other: &Self) -> Self {
        self.add_2008_s(other)
    }
    fn add_affine(&self, other: &Affine<C>) -> Self {
        self.madd_2008_s(other)
    }
    fn double(&self) -> Self {
        self.dbl_2008_s_1()
    }
    fn neg(&self) -> Self {
        Xyzz {
            y: -self.y,
            ..*self
        }
    }
    fn from_affine(p: &Affine<C>) -> Self {
        if p.infinity {
            Self::IDENTITY
        } else {
            Xyzz {
                x: p.x,
                y: p.y,
                zz: C::Base::ONE,
                zzz: C::Base::ONE,
            }
        }
    }
    // ANCHOR: xyzz_to_affine
    /// (X/ZZ, Y/ZZZ) with one inversion: i = (ZZ·ZZZ)⁻¹, then 1/ZZ = i·ZZZ and 1/ZZZ = i·ZZ.
    fn to_affine(&self) -> Affine<C> {
        let Some(i) = (self.zz * self.zzz).inverse() else {
            return Affine::IDENTITY;
        };
        Affine::new_unchecked(self.x * i * self.zzz, self.y * i * self.zz)
    }
    // ANCHOR_END: xyzz_to_affine
    /// ZZ³ = ZZZ² and Y² = X³ + b·ZZ³ (the identity counts as on the curve).
    fn is_on_curve(&self) -> bool {
        if self.is_identity() {
            return self.zzz.is_zero();
        }
        let zz3 = self.zz.square() * self.zz;
        zz3 == self.zzz.square() && self.y.square() == self.x.square() * self.x + C::B * zz3
    }
}

impl<C: SwCurve> PartialEq for Xyzz<C> {
    /// Same point: X1·ZZ2 = X2·ZZ1 and Y1·ZZZ2 = Y2·ZZZ1, or both the identity.
    fn eq(&self, other: &Self) -> bool {
        match (self.is_identity(), other.is_identity()) {
            (true, true) => true,
            (false, false) => {
                self.x * other.zz == other.x * self.zz && self.y * other.zzz == other.y * self.zzz
            }
            _ => false,
        }
    }
}
impl<C: SwCurve> Eq for Xyzz<C> {}
