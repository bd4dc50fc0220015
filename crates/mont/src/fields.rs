//! The six fields of the book, each typed once as a hex modulus, with every representation's
//! constants derived at compile time.

use crate::params::FieldParams;

macro_rules! define_field {
    ($(#[$doc:meta])* $module:ident, $name:literal, $hex:literal) => {
        $(#[$doc])*
        pub mod $module {
            use crate::barrett::BarrettParams;
            use crate::bos::BosParams;
            use crate::emmart::EmmartParams;
            use crate::gpu_twin::MontParams32;
            use crate::no_carry::{LazyNoCarryParams, NoCarryNotApplicable, NoCarryParams};
            use crate::params::{FieldParams, MontParams, limbs_covering, limbs_with_spare_bit};

            /// The modulus: the only constant typed by hand.
            pub const FIELD: FieldParams = FieldParams::from_hex($name, $hex);

            /// 64-bit words (CIOS, FIOS, SOS, no-carry, Barrett).
            pub const N64: usize = limbs_covering(FIELD.bits, 64);
            /// Montgomery constants for 64-bit limbs.
            pub const W64: MontParams<N64> = MontParams::new(&FIELD, 64);
            /// The no-carry constants, if p's top word allows them.
            pub const NO_CARRY: Result<NoCarryParams<N64>, NoCarryNotApplicable> = NoCarryParams::new(W64);
            /// The lazy no-carry constants, if p leaves two spare bits (R ≥ 4p).
            pub const NO_CARRY_LAZY: Result<LazyNoCarryParams<N64>, NoCarryNotApplicable> =
                LazyNoCarryParams::new(W64);
            /// Barrett constants for 64-bit words.
            pub const BARRETT: BarrettParams<N64> = BarrettParams::new(&FIELD);

            /// 32-bit limbs (Bos–Montgomery).
            pub const N32: usize = limbs_covering(FIELD.bits, 32);
            /// Bos–Montgomery constants.
            pub const BOS: BosParams<N32> = BosParams::new(MontParams::new(&FIELD, 32));

            /// 51-bit limbs (Emmart).
            pub const N51: usize = limbs_covering(FIELD.bits, crate::emmart::LIMB_BITS);
            /// Emmart constants.
            pub const EMMART: EmmartParams<N51> = EmmartParams::new(MontParams::new(&FIELD, crate::emmart::LIMB_BITS));

            /// Reduced radix, 26-bit limbs (limb counts leave a spare bit: R > 2p).
            pub const N26: usize = limbs_with_spare_bit(FIELD.bits, 26);
            /// Reduced radix, 26-bit constants.
            pub const R26: MontParams<N26> = MontParams::new(&FIELD, 26);
            /// Reduced radix, 27-bit limbs.
            pub const N27: usize = limbs_with_spare_bit(FIELD.bits, 27);
            /// Reduced radix, 27-bit constants.
            pub const R27: MontParams<N27> = MontParams::new(&FIELD, 27);
            /// Reduced radix, 28-bit limbs.
            pub const N28: usize = limbs_with_spare_bit(FIELD.bits, 28);
            /// Reduced radix, 28-bit constants.
            pub const R28: MontParams<N28> = MontParams::new(&FIELD, 28);
            /// Reduced radix, 29-bit limbs.
            pub const N29: usize = limbs_with_spare_bit(FIELD.bits, 29);
            /// Reduced radix, 29-bit constants.
            pub const R29: MontParams<N29> = MontParams::new(&FIELD, 29);
            /// Reduced radix, 30-bit limbs.
            pub const N30: usize = limbs_with_spare_bit(FIELD.bits, 30);
            /// Reduced radix, 30-bit constants.
            pub const R30: MontParams<N30> = MontParams::new(&FIELD, 30);

            /// GPU twin, 12-bit u32 limbs.
            pub const N12: usize = limbs_with_spare_bit(FIELD.bits, 12);
            /// GPU twin, 12-bit constants.
            pub const G12: MontParams32<N12> = MontParams32::new(MontParams::new(&FIELD, 12));
            /// GPU twin, 13-bit u32 limbs.
            pub const N13: usize = limbs_with_spare_bit(FIELD.bits, 13);
            /// GPU twin, 13-bit constants.
            pub const G13: MontParams32<N13> = MontParams32::new(MontParams::new(&FIELD, 13));
            /// GPU twin, 14-bit u32 limbs.
            pub const N14: usize = limbs_with_spare_bit(FIELD.bits, 14);
            /// GPU twin, 14-bit constants.
            pub const G14: MontParams32<N14> = MontParams32::new(MontParams::new(&FIELD, 14));
            /// GPU twin, 15-bit u32 limbs.
            pub const N15: usize = limbs_with_spare_bit(FIELD.bits, 15);
            /// GPU twin, 15-bit constants.
            pub const G15: MontParams32<N15> = MontParams32::new(MontParams::new(&FIELD, 15));
            /// GPU twin, 16-bit u32 limbs.
            pub const N16: usize = limbs_with_spare_bit(FIELD.bits, 16);
            /// GPU twin, 16-bit constants.
            pub const G16: MontParams32<N16> = MontParams32::new(MontParams::new(&FIELD, 16));
        }
    };
}

// ANCHOR: moduli
define_field!(
    /// BN254 (alt_bn128) base field.
    bn254_fq, "bn254-fq", "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
);
define_field!(
    /// BN254 scalar field.
    bn254_fr, "bn254-fr", "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
);
define_field!(
    /// BLS12-377 base field.
    bls12_377_fq, "bls12-377-fq",
    "0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001"
);
define_field!(
    /// BLS12-377 scalar field.
    bls12_377_fr, "bls12-377-fr", "0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001"
);
define_field!(
    /// BLS12-381 base field.
    bls12_381_fq, "bls12-381-fq",
    "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
);
define_field!(
    /// BLS12-381 scalar field.
    bls12_381_fr, "bls12-381-fr", "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
);
// ANCHOR_END: moduli

/// The fields, by stable name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// BN254 base field, 254 bits.
    Bn254Fq,
    /// BN254 scalar field, 254 bits.
    Bn254Fr,
    /// BLS12-377 base field, 377 bits.
    Bls12_377Fq,
    /// BLS12-377 scalar field, 253 bits.
    Bls12_377Fr,
    /// BLS12-381 base field, 381 bits.
    Bls12_381Fq,
    /// BLS12-381 scalar field, 255 bits.
    Bls12_381Fr,
}

impl Field {
    /// Every field, in a stable order.
    pub const ALL: [Field; 6] = [
        Field::Bn254Fq,
        Field::Bn254Fr,
        Field::Bls12_377Fq,
        Field::Bls12_377Fr,
        Field::Bls12_381Fq,
        Field::Bls12_381Fr,
    ];

    /// The field's parameters.
    pub const fn params(self) -> &'static FieldParams {
        match self {
            Field::Bn254Fq => &bn254_fq::FIELD,
            Field::Bn254Fr => &bn254_fr::FIELD,
            Field::Bls12_377Fq => &bls12_377_fq::FIELD,
            Field::Bls12_377Fr => &bls12_377_fr::FIELD,
            Field::Bls12_381Fq => &bls12_381_fq::FIELD,
            Field::Bls12_381Fr => &bls12_381_fr::FIELD,
        }
    }

    /// Stable name: `bn254-fq`, `bn254-fr`, `bls12-377-fq`, `bls12-377-fr`, `bls12-381-fq`,
    /// `bls12-381-fr`.
    pub const fn name(self) -> &'static str {
        self.params().name
    }

    /// Bit length of the modulus.
    pub const fn bits(self) -> u32 {
        self.params().bits
    }

    /// Looks a field up by its stable name.
    pub fn from_name(name: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl core::fmt::Display for Field {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
