//! Primitive cube roots of unity modulo a prime, the β of the base field and the λ of the scalar
//! field. Exact big-integer arithmetic; runs once per curve.

use num_bigint::BigUint;

// ANCHOR: cube_root
/// A primitive cube root of unity modulo the prime `m`, or `None` when m ≢ 1 (mod 3) and there
/// is none.
///
/// For any x ≠ 0, ω = x^((m−1)/3) satisfies ω³ = x^(m−1) = 1 (Fermat). It is 1 exactly when x is
/// a cube, so the first x = 2, 3, … that gives ω ≠ 1 gives a primitive root; the other one is ω².
/// Two thirds of all x are non-cubes, so the search stops after a step or two.
pub fn cube_root_of_unity(m: &BigUint) -> Option<BigUint> {
    let one = BigUint::from(1u8);
    let three = BigUint::from(3u8);
    if m % &three != one {
        return None;
    }
    let e = (m - &one) / &three;
    (2u32..)
        .map(|x| BigUint::from(x).modpow(&e, m))
        .find(|w| *w != one)
}
// ANCHOR_END: cube_root

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_primes() {
        // mod 7: the cube roots of unity are 1, 2, 4
        let w = cube_root_of_unity(&BigUint::from(7u8)).unwrap();
        assert!(w == BigUint::from(2u8) || w == BigUint::from(4u8), "{w}");
        // 13: 3 and 9
        let w = cube_root_of_unity(&BigUint::from(13u8)).unwrap();
        assert_eq!(
            w.modpow(&BigUint::from(3u8), &BigUint::from(13u8)),
            BigUint::from(1u8)
        );
        assert_ne!(w, BigUint::from(1u8));
        // 11 ≡ 2 (mod 3): no primitive cube root of unity
        assert_eq!(cube_root_of_unity(&BigUint::from(11u8)), None);
    }
}
