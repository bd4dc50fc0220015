//! Every variant × every field against num-bigint and arkworks: the raw kernel (Montgomery
//! product a·b·R⁻¹), the full product through the conversions, and the chained benchmark loop.

use crate::common::*;
use fastmsm_mont::baseline::ark_chained_mul;
use fastmsm_mont::{Field, MontError, Variant, applies, chained_mul, mul, radix_bits, raw_product};
use num_bigint::BigUint;

/// Variants that this build can run (Bos SIMD needs SSE2 or wasm simd128).
fn variants() -> Vec<Variant> {
    let v: Vec<_> = Variant::ALL
        .into_iter()
        .filter(|v| v.is_available())
        .collect();
    if cfg!(target_arch = "x86_64") {
        assert_eq!(v.len(), Variant::ALL.len(), "every variant runs on x86-64");
    }
    v
}

/// The variants of [`variants`] that apply to `f`: all but the lazy no-carry product over a
/// modulus without two spare bits (checked by `only_bls12_381_fr_lacks_room_for_lazy_no_carry`).
fn variants_for(f: Field) -> Vec<Variant> {
    variants()
        .into_iter()
        .filter(|&v| applies(v, f).is_ok())
        .collect()
}

/// The factor the raw kernel multiplies by: R⁻¹ mod p, or 1 for Barrett.
fn raw_factor(f: Field, v: Variant) -> BigUint {
    let p = modulus(f);
    match radix_bits(v, f).unwrap() {
        Some(r) => {
            assert_eq!(r % v.limb_bits(), 0);
            assert!(pow2(r) > p, "{v}/{f}: R must exceed p");
            inv_mod(&(pow2(r) % &p), &p)
        }
        None => BigUint::from(1u32),
    }
}

fn inputs(f: Field, v: Variant, seed: u64, random: usize) -> Vec<BigUint> {
    let p = modulus(f);
    let r: Vec<u32> = radix_bits(v, f)
        .unwrap()
        .into_iter()
        .chain([64 * f.bits().div_ceil(64)])
        .collect();
    let mut xs = edge_values(f, &r, &[v.limb_bits(), 64]);
    let mut g = rng(seed);
    xs.extend((0..random).map(|_| random_below(&mut g, &p)));
    xs
}

#[test]
fn raw_kernel_is_the_montgomery_product_on_edges_and_random_inputs() {
    for f in Field::ALL {
        for v in variants_for(f) {
            let xs = inputs(f, v, 1 + v as u64, 24);
            let p = modulus(f);
            let factor = raw_factor(f, v);
            // every pair of edge and random values: thousands of products per variant and field
            for a in &xs {
                for b in &xs {
                    let got = raw_product(v, f, &canon(a), &canon(b)).unwrap();
                    assert_eq!(
                        big(&got),
                        a * b % &p * &factor % &p,
                        "{v}/{f}: a={a:#x} b={b:#x}"
                    );
                }
            }
        }
    }
}

#[test]
fn product_through_the_conversions_is_x_times_y_mod_p() {
    let mut g = rng(11);
    for f in Field::ALL {
        let p = modulus(f);
        for v in variants_for(f) {
            let edges = inputs(f, v, 100 + v as u64, 0);
            let randoms: Vec<_> = (0..200).map(|_| random_below(&mut g, &p)).collect();
            let pairs = edges.iter().flat_map(|a| edges.iter().map(move |b| (a, b)));
            let random_pairs = randoms.chunks(2).map(|c| (&c[0], &c[1]));
            for (a, b) in pairs.chain(random_pairs) {
                let got = mul(v, f, &canon(a), &canon(b)).unwrap();
                assert_eq!(big(&got), a * b % &p, "{v}/{f}: a={a:#x} b={b:#x}");
            }
        }
    }
}

#[test]
fn products_agree_with_arkworks() {
    let mut g = rng(12);
    for f in Field::ALL {
        let p = modulus(f);
        for _ in 0..40 {
            let (a, b) = (
                canon(&random_below(&mut g, &p)),
                canon(&random_below(&mut g, &p)),
            );
            let ark = ark_chained_mul(f, &a, &b, 1).unwrap();
            assert_eq!(big(&ark), big(&a) * big(&b) % &p, "arkworks itself, {f}");
            for v in variants_for(f) {
                assert_eq!(mul(v, f, &a, &b).unwrap(), ark, "{v}/{f}");
            }
        }
    }
}

// ANCHOR: chained_test
#[test]
fn chained_loop_matches_modpow_and_arkworks() {
    let mut g = rng(13);
    for f in Field::ALL {
        let p = modulus(f);
        let r_mod_p = pow2(64 * f.bits().div_ceil(64)) % &p;
        let starts = [
            (random_below(&mut g, &p), random_below(&mut g, &p)),
            (&p - 1u32, &p - 1u32), // (−1)^n alternates
            (BigUint::from(1u32), &p - 2u32),
            (r_mod_p.clone(), r_mod_p),
        ];
        for (x, y) in &starts {
            for iters in [0u64, 1, 2, 3, 64, 1000] {
                let expected = x * y.modpow(&BigUint::from(iters), &p) % &p;
                let ark = ark_chained_mul(f, &canon(x), &canon(y), iters).unwrap();
                assert_eq!(big(&ark), expected, "arkworks, {f}, {iters} steps");
                for v in variants_for(f) {
                    let got = chained_mul(v, f, &canon(x), &canon(y), iters).unwrap();
                    assert_eq!(got, ark, "{v}/{f}: {iters} steps from x={x:#x}, y={y:#x}");
                }
            }
        }
    }
}
// ANCHOR_END: chained_test

#[test]
fn inputs_at_or_above_p_are_rejected() {
    for f in Field::ALL {
        let p = canon(&modulus(f));
        let one = canon(&BigUint::from(1u32));
        for v in variants_for(f) {
            assert_eq!(
                chained_mul(v, f, &p, &one, 1),
                Err(MontError::NotReduced {
                    field: f,
                    input: "x"
                })
            );
            assert_eq!(
                raw_product(v, f, &one, &p),
                Err(MontError::NotReduced {
                    field: f,
                    input: "y"
                })
            );
        }
        assert!(ark_chained_mul(f, &p, &one, 1).is_err());
    }
}

#[test]
fn only_bls12_381_fr_lacks_room_for_lazy_no_carry() {
    for f in Field::ALL {
        for v in variants() {
            let verdict = applies(v, f);
            if (v, f) == (Variant::CiosNoCarryLazy, Field::Bls12_381Fr) {
                let Err(e @ MontError::NoCarry(..)) = verdict else {
                    panic!("{v}/{f}: {verdict:?}")
                };
                // the same error, naming the field and the bound, from every entry point
                let one = canon(&BigUint::from(1u32));
                assert_eq!(chained_mul(v, f, &one, &one, 1), Err(e));
                assert_eq!(raw_product(v, f, &one, &one), Err(e));
                let text = e.to_string();
                assert!(
                    text.contains("bls12-381-fr") && text.contains("0x4000000000000000"),
                    "{text}"
                );
            } else {
                assert_eq!(verdict, Ok(()), "{v}/{f}");
            }
        }
    }
}

#[test]
fn names_are_stable_and_unique() {
    let names: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    for v in Variant::ALL {
        assert_eq!(Variant::from_name(v.name()), Some(v));
        assert!(!v.summary().is_empty());
    }
    for f in Field::ALL {
        assert_eq!(Field::from_name(f.name()), Some(f));
    }
    assert_eq!(Variant::from_name("cios"), Some(Variant::Cios));
    assert_eq!(
        Variant::from_name("reduced-radix-30"),
        Some(Variant::ReducedRadix30)
    );
    assert_eq!(Variant::from_name("u32-13bit"), Some(Variant::U32Limbs13));
    assert_eq!(Field::from_name("bls12-377-fq"), Some(Field::Bls12_377Fq));
    assert_eq!(Variant::from_name("nope"), None);
}
