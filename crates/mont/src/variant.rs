//! The catalogue of multiplication variants, with stable names for widgets, benches and JSON.

/// Every multiplication variant of the crate. The string names are stable: they appear in
/// benchmark JSON and in the widget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// CIOS, 64-bit limbs ([`crate::cios::cios`]).
    Cios,
    /// FIOS, 64-bit limbs ([`crate::fios::fios`]).
    Fios,
    /// SOS, 64-bit limbs ([`crate::sos::sos`]).
    Sos,
    /// gnark's no-carry CIOS, 64-bit limbs ([`crate::no_carry::cios_no_carry`]).
    CiosNoCarry,
    /// gnark's no-carry CIOS without the final subtraction: results below 2p feed the next
    /// product; needs R ≥ 4p ([`crate::no_carry::cios_no_carry_lazy`]).
    CiosNoCarryLazy,
    /// FIPS product scanning, 64-bit limbs, carries kept in `u128` column sums: the product for
    /// WebAssembly's 64×64→128-bit multiply ([`crate::fips_wide::fips_wide`]).
    FipsWide,
    /// Bos–Montgomery two-lane algorithm on the portable lanes ([`crate::bos::bos_mul`]).
    BosPortable,
    /// Bos–Montgomery on SIMD lanes: SSE2 on x86-64, simd128 on wasm32.
    BosSimd,
    /// Emmart's f64 FMA method, 51-bit limbs, two products per FMA
    /// ([`crate::emmart::emmart_mul_paired`]; relaxed SIMD on wasm32 when compiled in).
    EmmartFma,
    /// Mitscha-Baude reduced radix, 26-bit limbs.
    ReducedRadix26,
    /// Mitscha-Baude reduced radix, 27-bit limbs.
    ReducedRadix27,
    /// Mitscha-Baude reduced radix, 28-bit limbs.
    ReducedRadix28,
    /// Mitscha-Baude reduced radix, 29-bit limbs.
    ReducedRadix29,
    /// Mitscha-Baude reduced radix, 30-bit limbs.
    ReducedRadix30,
    /// Reduced radix, 30-bit limbs, lazy: results below 2p feed the next product
    /// ([`crate::reduced_radix::mont_mul_reduced_radix_lazy`]).
    ReducedRadix30Lazy,
    /// Reduced radix, 30-bit limbs, lazy, the x·y and q·p products in two SIMD lanes
    /// ([`crate::reduced_radix_lanes::mont_mul_lanes`]).
    ReducedRadix30Lanes,
    /// u32-only twin of the WGSL shader, 12-bit limbs.
    U32Limbs12,
    /// u32-only twin of the WGSL shader, 13-bit limbs.
    U32Limbs13,
    /// u32-only twin of the WGSL shader, 14-bit limbs.
    U32Limbs14,
    /// u32-only twin of the WGSL shader, 15-bit limbs.
    U32Limbs15,
    /// u32-only twin of the WGSL shader, 16-bit limbs (CIOS).
    U32Limbs16,
    /// Vanilla Barrett, 64-bit limbs, ordinary (non-Montgomery) form.
    Barrett,
    /// Barrett–Domb, 64-bit limbs, ordinary form.
    BarrettDomb,
}

impl Variant {
    /// Every variant, in a stable order.
    pub const ALL: [Variant; 23] = [
        Variant::Cios,
        Variant::Fios,
        Variant::Sos,
        Variant::CiosNoCarry,
        Variant::CiosNoCarryLazy,
        Variant::FipsWide,
        Variant::BosPortable,
        Variant::BosSimd,
        Variant::EmmartFma,
        Variant::ReducedRadix26,
        Variant::ReducedRadix27,
        Variant::ReducedRadix28,
        Variant::ReducedRadix29,
        Variant::ReducedRadix30,
        Variant::ReducedRadix30Lazy,
        Variant::ReducedRadix30Lanes,
        Variant::U32Limbs12,
        Variant::U32Limbs13,
        Variant::U32Limbs14,
        Variant::U32Limbs15,
        Variant::U32Limbs16,
        Variant::Barrett,
        Variant::BarrettDomb,
    ];

    /// Stable name, e.g. `"cios"`, `"reduced-radix-30"`, `"u32-13bit"`, `"barrett-domb"`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Cios => "cios",
            Variant::Fios => "fios",
            Variant::Sos => "sos",
            Variant::CiosNoCarry => "cios-no-carry",
            Variant::CiosNoCarryLazy => "cios-no-carry-lazy",
            Variant::FipsWide => "fips-wide",
            Variant::BosPortable => "bos-portable",
            Variant::BosSimd => "bos-simd",
            Variant::EmmartFma => "emmart-fma",
            Variant::ReducedRadix26 => "reduced-radix-26",
            Variant::ReducedRadix27 => "reduced-radix-27",
            Variant::ReducedRadix28 => "reduced-radix-28",
            Variant::ReducedRadix29 => "reduced-radix-29",
            Variant::ReducedRadix30 => "reduced-radix-30",
            Variant::ReducedRadix30Lazy => "reduced-radix-30-lazy",
            Variant::ReducedRadix30Lanes => "reduced-radix-30-lanes",
            Variant::U32Limbs12 => "u32-12bit",
            Variant::U32Limbs13 => "u32-13bit",
            Variant::U32Limbs14 => "u32-14bit",
            Variant::U32Limbs15 => "u32-15bit",
            Variant::U32Limbs16 => "u32-16bit",
            Variant::Barrett => "barrett",
            Variant::BarrettDomb => "barrett-domb",
        }
    }

    /// Looks a variant up by its stable name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Bits per limb of the representation.
    pub const fn limb_bits(self) -> u32 {
        match self {
            Variant::Cios | Variant::Fios | Variant::Sos => 64,
            Variant::CiosNoCarry | Variant::CiosNoCarryLazy => 64,
            Variant::FipsWide => 64,
            Variant::Barrett | Variant::BarrettDomb => 64,
            Variant::BosPortable | Variant::BosSimd => 32,
            Variant::EmmartFma => crate::emmart::LIMB_BITS,
            Variant::ReducedRadix26 => 26,
            Variant::ReducedRadix27 => 27,
            Variant::ReducedRadix28 => 28,
            Variant::ReducedRadix29 => 29,
            Variant::ReducedRadix30
            | Variant::ReducedRadix30Lazy
            | Variant::ReducedRadix30Lanes => 30,
            Variant::U32Limbs12 => 12,
            Variant::U32Limbs13 => 13,
            Variant::U32Limbs14 => 14,
            Variant::U32Limbs15 => 15,
            Variant::U32Limbs16 => 16,
        }
    }

    /// True for the Montgomery variants (elements live as x·R mod p); false for Barrett.
    pub const fn is_montgomery(self) -> bool {
        !matches!(self, Variant::Barrett | Variant::BarrettDomb)
    }

    /// Whether this build can run the variant: `BosSimd` needs SSE2 (x86-64) or wasm simd128.
    /// (`EmmartFma` always runs; on wasm32 without relaxed SIMD its `f64::mul_add` is a slow
    /// software FMA, which [`crate::emmart::fma_backend`] reports.)
    pub const fn is_available(self) -> bool {
        match self {
            Variant::BosSimd => crate::two_lane::simd_backend().is_some(),
            _ => true,
        }
    }

    /// One line for tables: the method and its source.
    pub const fn summary(self) -> &'static str {
        match self {
            Variant::Cios => "CIOS, 64-bit limbs (Koç, Acar, Kaliski 1996)",
            Variant::Fios => "FIOS, 64-bit limbs (Koç, Acar, Kaliski 1996)",
            Variant::Sos => "SOS, 64-bit limbs (Koç, Acar, Kaliski 1996)",
            Variant::CiosNoCarry => "no-carry CIOS, 64-bit limbs (gnark 2020)",
            Variant::CiosNoCarryLazy => "no-carry CIOS, 64-bit limbs, results below 2p (lazy)",
            Variant::FipsWide => {
                "FIPS, 64-bit limbs, u128 column sums for the 64×64→128 multiply (Koç et al. 1996)"
            }
            Variant::BosPortable => "two-lane, 32-bit limbs, portable lanes (Bos et al. 2013/2017)",
            Variant::BosSimd => "two-lane, 32-bit limbs, SIMD lanes (Bos et al. 2013/2017)",
            Variant::EmmartFma => "f64 FMA, 51-bit limbs (Emmart, Zheng, Weems 2018; ZPrize 2023)",
            Variant::ReducedRadix26 => "reduced radix, 26-bit limbs in u64 (Mitscha-Baude 2022)",
            Variant::ReducedRadix27 => "reduced radix, 27-bit limbs in u64 (Mitscha-Baude 2022)",
            Variant::ReducedRadix28 => "reduced radix, 28-bit limbs in u64 (Mitscha-Baude 2022)",
            Variant::ReducedRadix29 => "reduced radix, 29-bit limbs in u64 (Mitscha-Baude 2022)",
            Variant::ReducedRadix30 => "reduced radix, 30-bit limbs in u64 (Mitscha-Baude 2022)",
            Variant::ReducedRadix30Lazy => "reduced radix, 30-bit limbs, results below 2p (lazy)",
            Variant::ReducedRadix30Lanes => {
                "reduced radix, 30-bit limbs, lazy, x·y and q·p in two SIMD lanes"
            }
            Variant::U32Limbs12 => "u32 only, 12-bit limbs, WGSL twin (Derei & Koh 2023)",
            Variant::U32Limbs13 => "u32 only, 13-bit limbs, WGSL twin (Derei & Koh 2023)",
            Variant::U32Limbs14 => "u32 only, 14-bit limbs, WGSL twin (Derei & Koh 2023)",
            Variant::U32Limbs15 => "u32 only, 15-bit limbs, WGSL twin (Derei & Koh 2023)",
            Variant::U32Limbs16 => "u32 only, 16-bit limbs, CIOS, WGSL twin (Derei & Koh 2023)",
            Variant::Barrett => "Barrett reduction, 64-bit limbs (Barrett 1986)",
            Variant::BarrettDomb => "Barrett-Domb, 64-bit limbs (Domb 2022)",
        }
    }
}

impl core::fmt::Display for Variant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
