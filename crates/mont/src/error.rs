//! Errors of the public entry points.

use crate::fields::Field;
use crate::no_carry::NoCarryNotApplicable;
use crate::variant::Variant;

/// Why a chained multiplication or a constant table could not be produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MontError {
    /// An input was not below the modulus.
    NotReduced {
        /// The field.
        field: Field,
        /// Which input: `"x"` or `"y"`.
        input: &'static str,
    },
    /// The variant is not compiled into this build (e.g. SIMD lanes on a target without SIMD).
    Unavailable(Variant),
    /// The no-carry CIOS does not apply to this modulus.
    NoCarry(Field, NoCarryNotApplicable),
    /// A limb width outside what the function supports.
    LimbWidth(u32),
}

impl core::fmt::Display for MontError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MontError::NotReduced { field, input } => {
                write!(f, "input {input} is not below the modulus of {field}")
            }
            MontError::Unavailable(v) => write!(f, "variant {v} is not available in this build"),
            MontError::NoCarry(field, e) => write!(f, "{field}: {e}"),
            MontError::LimbWidth(w) => write!(f, "unsupported limb width {w}"),
        }
    }
}

impl std::error::Error for MontError {}
