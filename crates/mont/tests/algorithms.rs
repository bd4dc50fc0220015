//! Tests of the individual algorithms beyond "the product is right": the squaring shortcut,
//! worst-case carries on moduli whose limbs are all ones, Emmart's split and its tie case,
//! Barrett's correction counts, and the no-carry condition at work.

use crate::common::*;
use fastmsm_mont::barrett::{self, BarrettParams};
use fastmsm_mont::bos::{self, BosParams};
use fastmsm_mont::emmart::{self, EmmartParams, HI_BIAS, LO_BIAS, PortableLanes, split_product};
use fastmsm_mont::fields::{self, Field};
use fastmsm_mont::gpu_twin::{self, MontParams32};
use fastmsm_mont::no_carry::{LazyNoCarryParams, NoCarryParams, cios_no_carry, cios_no_carry_lazy};
use fastmsm_mont::params::{FieldParams, MontParams};
use fastmsm_mont::two_lane::{BestLanes, Portable};
use fastmsm_mont::{
    cios, fios, fips_wide, primitives, reduced_radix, reduced_radix_lanes, sos, words,
};
use num_bigint::BigUint;
use rand::Rng;

/// `run(&fields::F::EMMART, &fields::F::FIELD, extra…)` for each listed field: the Emmart tests'
/// `run` is generic over the limb count, so it cannot take the fields from a loop.
macro_rules! each_emmart_field {
    ($run:ident: $($field:ident $(($($extra:expr),*))?),* $(,)?) => {
        $( $run(&fields::$field::EMMART, &fields::$field::FIELD $($(, $extra)*)?); )*
    };
}

/// a·b·R⁻¹ mod p for any odd p (not necessarily prime).
fn mont_ref(a: &BigUint, b: &BigUint, p: &BigUint, log2_r: u32) -> BigUint {
    let r_inv = (pow2(log2_r) % p).modinv(p).unwrap();
    a * b % p * r_inv % p
}

fn limbs_n<const N: usize>(x: &BigUint, w: u32) -> [u64; N] {
    words::to_limbs(&canon(x), w)
}

#[test]
fn sos_square_equals_sos_of_a_times_a() {
    macro_rules! check {
        ($m:ident, $f:expr) => {{
            let k = &fields::$m::W64;
            let p = modulus($f);
            let mut g = rng(21);
            let mut xs = edge_values($f, &[k.log2_r()], &[64]);
            xs.extend((0..300).map(|_| random_below(&mut g, &p)));
            for x in &xs {
                let a = k.split(&canon(x));
                let sq = sos::sos_square(&a, k);
                assert_eq!(sq, sos::sos(&a, &a, k), "{}: x={x:#x}", $f);
                assert_eq!(big(&k.join(&sq)), mont_ref(x, x, &p, k.log2_r()));
            }
        }};
    }
    check!(bn254_fq, Field::Bn254Fq);
    check!(bn254_fr, Field::Bn254Fr);
    check!(bls12_377_fq, Field::Bls12_377Fq);
    check!(bls12_377_fr, Field::Bls12_377Fr);
    check!(bls12_381_fq, Field::Bls12_381Fq);
    check!(bls12_381_fr, Field::Bls12_381Fr);
}

/// Moduli whose limbs are (nearly) all ones drive every column sum to its worst case; with
/// overflow checks on (the test profile), an accumulator that exceeds its carry budget panics.
/// These are odd but not prime: Montgomery multiplication only needs gcd(p, R) = 1.
const ALL_ONES_253: FieldParams = FieldParams::from_hex(
    "2^253-1",
    "0x1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
);
const ALL_ONES_381: FieldParams = FieldParams::from_hex(
    "2^381-1",
    "0x1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
);
/// Moduli that use the whole top word: here the spill words of CIOS, FIOS and SOS are really
/// needed (the six pairing fields all leave the top word's high bits free, so they never are).
const SECP256K1: FieldParams = FieldParams::from_hex(
    "secp256k1",
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
);
const ALL_ONES_256: FieldParams = FieldParams::from_hex(
    "2^256-1",
    "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
);
const P25519: FieldParams = FieldParams::from_hex(
    "2^255-19",
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
);

fn stress_inputs(p: &BigUint, seed: u64) -> Vec<BigUint> {
    let mut v = vec![
        p - 1u32,
        p - 2u32,
        p - 3u32,
        (p - 1u32) >> 1u32,
        BigUint::from(1u32),
        BigUint::from(0u32),
    ];
    let mut g = rng(seed);
    v.extend((0..40).map(|_| {
        // random values with long runs of one bits
        let x: BigUint = random_below(&mut g, p);
        let mask = (pow2(g.gen_range(1..p.bits() as u32)) - 1u32) & (p - 1u32);
        (x | mask) % p
    }));
    v
}

macro_rules! stress_reduced_radix {
    ($field:expr, $bits:expr, $w:literal) => {{
        const N: usize = $bits / $w + 1;
        const K: MontParams<N> = MontParams::new(&$field, $w);
        let p = big(&$field.modulus);
        let xs = stress_inputs(&p, $w);
        for a in &xs {
            for b in &xs {
                let got = reduced_radix::mont_mul_reduced_radix::<$w, N>(
                    &limbs_n(a, $w),
                    &limbs_n(b, $w),
                    &K,
                );
                assert_eq!(
                    big_limbs(&got, $w),
                    mont_ref(a, b, &p, K.log2_r()),
                    "{} w={}",
                    $field.name,
                    $w
                );
            }
        }
    }};
}

macro_rules! stress_u32 {
    ($field:expr, $bits:expr, $w:literal, $mul:expr) => {{
        const N: usize = $bits / $w + 1;
        const K: MontParams32<N> = MontParams32::new(MontParams::new(&$field, $w));
        let p = big(&$field.modulus);
        let xs = stress_inputs(&p, $w);
        let narrow = |x: &BigUint| fastmsm_mont::params::narrow(&limbs_n::<N>(x, $w));
        for a in &xs {
            for b in &xs {
                let got = $mul(&narrow(a), &narrow(b), &K);
                let got: Vec<u64> = got.iter().map(|&x| x as u64).collect();
                assert_eq!(
                    big_limbs(&got, $w),
                    mont_ref(a, b, &p, K.wide.log2_r()),
                    "{} w={}",
                    $field.name,
                    $w
                );
            }
        }
    }};
}

#[test]
fn reduced_radix_survives_all_ones_moduli() {
    stress_reduced_radix!(ALL_ONES_253, 253, 26);
    stress_reduced_radix!(ALL_ONES_253, 253, 27);
    stress_reduced_radix!(ALL_ONES_253, 253, 28);
    stress_reduced_radix!(ALL_ONES_253, 253, 29);
    stress_reduced_radix!(ALL_ONES_253, 253, 30);
    stress_reduced_radix!(ALL_ONES_381, 381, 26);
    stress_reduced_radix!(ALL_ONES_381, 381, 29);
    stress_reduced_radix!(ALL_ONES_381, 381, 30);
    stress_reduced_radix!(P25519, 255, 30);
}

/// The lazy 30-bit products (scalar, and both lane implementations) on operands anywhere below
/// 2p, edges included: the result is congruent to a·b·R⁻¹ and below 2p, limbs below 2^30.
macro_rules! stress_lazy {
    ($field:expr, $bits:expr) => {{
        const N: usize = $bits / 30 + 1;
        const K: MontParams<N> = MontParams::new(&$field, 30);
        assert!(reduced_radix::has_two_spare_bits(&K));
        let p = big(&$field.modulus);
        let mut xs = stress_inputs(&p, 30);
        let twice: Vec<BigUint> = xs.iter().map(|x| x + &p).collect();
        xs.extend(twice); // p ..= 2p − 1, 2p − 1 included
        let products: [(&str, fn(&[u64; N], &[u64; N], &MontParams<N>) -> [u64; N]); 3] = [
            ("lazy", reduced_radix::mont_mul_reduced_radix_lazy::<30, N>),
            (
                "lanes/portable",
                reduced_radix_lanes::mont_mul_lanes::<Portable, N>,
            ),
            (
                "lanes/best",
                reduced_radix_lanes::mont_mul_lanes::<BestLanes, N>,
            ),
        ];
        for s in 2..=7 {
            for a in &xs {
                for b in &xs {
                    let (la, lb) = (limbs_n(a, 30), limbs_n(b, 30));
                    let got =
                        reduced_radix_lanes::mont_mul_lanes_split::<Portable, N>(&la, &lb, &K, s);
                    let lazy = reduced_radix::mont_mul_reduced_radix_lazy::<30, N>(&la, &lb, &K);
                    assert_eq!(got, lazy, "{} split {s}", $field.name);
                }
            }
        }
        for (name, mul) in products {
            for a in &xs {
                for b in &xs {
                    let got = mul(&limbs_n(a, 30), &limbs_n(b, 30), &K);
                    assert!(
                        got.iter().all(|&l| l < 1 << 30),
                        "{name}: limb over 30 bits"
                    );
                    let got = big_limbs(&got, 30);
                    assert!(got < &p + &p, "{} {name}: result not below 2p", $field.name);
                    assert_eq!(
                        got % &p,
                        mont_ref(a, b, &p, K.log2_r()),
                        "{} {name}",
                        $field.name
                    );
                }
            }
        }
    }};
}

#[test]
fn lazy_products_stay_below_2p_on_all_ones_and_real_moduli() {
    stress_lazy!(ALL_ONES_253, 253);
    stress_lazy!(ALL_ONES_381, 381);
    stress_lazy!(fields::bn254_fr::FIELD, 254);
    stress_lazy!(fields::bls12_377_fq::FIELD, 377);
    stress_lazy!(fields::bls12_381_fq::FIELD, 381);
}

/// The lazy no-carry product on operands anywhere below 2p, edges (p − 1, p, 2p − 1, …) and
/// long runs of one bits included: the result is below 2p and congruent to a·b·R⁻¹, and the eager
/// product of the same operands is a·b·R⁻¹ mod p.
fn stress_no_carry_lazy<const N: usize>(f: &'static FieldParams) {
    let k = MontParams::<N>::new(f, 64);
    let lazy_k = LazyNoCarryParams::new(k).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    let eager_k = NoCarryParams::new(k).unwrap();
    let p = big(&f.modulus);
    let below_p = stress_inputs(&p, 64);
    let twice: Vec<BigUint> = below_p.iter().map(|x| x + &p).collect();
    let xs: Vec<&BigUint> = below_p.iter().chain(&twice).collect();
    for a in &xs {
        for b in &xs {
            let (aw, bw) = (limbs_n::<N>(a, 64), limbs_n::<N>(b, 64));
            let got = big_limbs(&cios_no_carry_lazy(&aw, &bw, &lazy_k), 64);
            assert!(
                got < &p + &p,
                "{}: result not below 2p for a={a:#x} b={b:#x}",
                f.name
            );
            let want = mont_ref(a, b, &p, 64 * N as u32);
            assert_eq!(&got % &p, want, "{}: a={a:#x} b={b:#x}", f.name);
            // the eager product takes these operands too (R ≥ 4p), fully reduced: how
            // fastmsm-curves' Mont64 multiplies a lazy result
            let eager = big_limbs(&cios_no_carry(&aw, &bw, &eager_k), 64);
            assert_eq!(eager, want, "{}: eager a={a:#x} b={b:#x}", f.name);
        }
    }
}

#[test]
fn lazy_no_carry_stays_below_2p_on_all_ones_and_real_moduli() {
    stress_no_carry_lazy::<4>(&ALL_ONES_253);
    stress_no_carry_lazy::<6>(&ALL_ONES_381);
    stress_no_carry_lazy::<4>(&fields::bn254_fr::FIELD);
    stress_no_carry_lazy::<4>(&fields::bn254_fq::FIELD);
    stress_no_carry_lazy::<4>(&fields::bls12_377_fr::FIELD);
    stress_no_carry_lazy::<6>(&fields::bls12_377_fq::FIELD);
    stress_no_carry_lazy::<6>(&fields::bls12_381_fq::FIELD);
    // the condition's edge: 2^254 − 1 (top word 0x3fff…) has room, 2^255 − 19 and BLS12-381's
    // scalar field (top word 0x73ed…) do not; both still pass the eager no-carry check
    const ALL_ONES_254: FieldParams = FieldParams::from_hex(
        "2^254-1",
        "0x3fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    );
    stress_no_carry_lazy::<4>(&ALL_ONES_254);
    for f in [&P25519, &fields::bls12_381_fr::FIELD] {
        let e = LazyNoCarryParams::new(MontParams::<4>::new(f, 64)).unwrap_err();
        assert_eq!((e.top_limb, e.limit), (f.modulus[3], 1 << 62), "{}", f.name);
    }
    assert!(NoCarryParams::new(MontParams::<4>::new(&fields::bls12_381_fr::FIELD, 64)).is_ok());
}

#[test]
fn gpu_twins_survive_all_ones_moduli() {
    stress_u32!(ALL_ONES_253, 253, 12, gpu_twin::mont_mul_u32_nsafe::<12, N>);
    stress_u32!(ALL_ONES_253, 253, 13, gpu_twin::mont_mul_u32_nsafe::<13, N>);
    stress_u32!(ALL_ONES_253, 253, 14, gpu_twin::mont_mul_u32_nsafe::<14, N>);
    stress_u32!(ALL_ONES_253, 253, 15, gpu_twin::mont_mul_u32_nsafe::<15, N>);
    stress_u32!(ALL_ONES_253, 253, 16, gpu_twin::mont_mul_u32_cios16::<N>);
    stress_u32!(ALL_ONES_381, 381, 13, gpu_twin::mont_mul_u32_nsafe::<13, N>);
    stress_u32!(ALL_ONES_381, 381, 15, gpu_twin::mont_mul_u32_nsafe::<15, N>);
    stress_u32!(ALL_ONES_381, 381, 16, gpu_twin::mont_mul_u32_cios16::<N>);
}

#[test]
fn word_level_variants_survive_all_ones_moduli() {
    fn run<const N: usize, const N32: usize, const N51: usize>(f: &'static FieldParams) {
        let p = big(&f.modulus);
        let k = MontParams::<N>::new(f, 64);
        let bos_k = BosParams::<N32>::new(MontParams::new(f, 32));
        let em_k = EmmartParams::<N51>::new(MontParams::new(f, 51));
        let nc = NoCarryParams::new(k).ok();
        let xs = stress_inputs(&p, 99);
        for a in &xs {
            for b in &xs {
                let want = mont_ref(a, b, &p, 64 * N as u32);
                let (aw, bw) = (limbs_n::<N>(a, 64), limbs_n::<N>(b, 64));
                assert_eq!(
                    big_limbs(&cios::cios(&aw, &bw, &k), 64),
                    want,
                    "cios {}",
                    f.name
                );
                assert_eq!(
                    big_limbs(&fios::fios(&aw, &bw, &k), 64),
                    want,
                    "fios {}",
                    f.name
                );
                assert_eq!(
                    big_limbs(&sos::sos(&aw, &bw, &k), 64),
                    want,
                    "sos {}",
                    f.name
                );
                assert_eq!(
                    big_limbs(&fips_wide::fips_wide(&aw, &bw, &k), 64),
                    want,
                    "fips-wide {}",
                    f.name
                );
                if let Some(nc) = &nc {
                    assert_eq!(
                        big_limbs(&cios_no_carry(&aw, &bw, nc), 64),
                        want,
                        "no-carry {}",
                        f.name
                    );
                }
                let n32 = |x: &BigUint| fastmsm_mont::params::narrow(&limbs_n::<N32>(x, 32));
                let got = bos::bos_mul::<Portable, N32>(&n32(a), &n32(b), &bos_k);
                let got: Vec<u64> = got.iter().map(|&x| x as u64).collect();
                assert_eq!(
                    big_limbs(&got, 32),
                    mont_ref(a, b, &p, 32 * N32 as u32),
                    "bos {}",
                    f.name
                );
                let got = emmart::emmart_mul(&limbs_n::<N51>(a, 51), &limbs_n::<N51>(b, 51), &em_k);
                assert_eq!(
                    big_limbs(&got, 51),
                    mont_ref(a, b, &p, 51 * N51 as u32),
                    "emmart {}",
                    f.name
                );
                let paired = emmart::emmart_mul_paired::<PortableLanes, N51>(
                    &limbs_n::<N51>(a, 51),
                    &limbs_n::<N51>(b, 51),
                    &em_k,
                );
                assert_eq!(paired, got, "emmart paired {}", f.name);
                let bp = BarrettParams::<N>::new(f);
                assert_eq!(
                    big_limbs(&barrett::barrett_mul(&aw, &bw, &bp), 64),
                    a * b % &p,
                    "barrett {}",
                    f.name
                );
                let (r, corrections) = barrett::barrett_domb_mul_counted(&aw, &bw, &bp);
                assert_eq!(big_limbs(&r, 64), a * b % &p, "barrett-domb {}", f.name);
                assert!(corrections <= bp.domb_max_corrections());
            }
        }
    }
    run::<4, 8, 5>(&ALL_ONES_253);
    // 255 bits in 5 limbs of 51: R = 2^255 < 2p, so Emmart's result can spill into a carry bit
    run::<4, 8, 5>(&P25519);
    run::<6, 12, 8>(&ALL_ONES_381);
    run::<4, 8, 6>(&SECP256K1);
    run::<4, 8, 6>(&ALL_ONES_256);
    // the no-carry verdicts: 2^253 − 1 (top word 0x1fff…) qualifies, 2^255 − 19 (0x7fff…ffff) not
    assert!(NoCarryParams::new(MontParams::<4>::new(&ALL_ONES_253, 64)).is_ok());
    assert!(NoCarryParams::new(MontParams::<4>::new(&P25519, 64)).is_err());
}

#[test]
fn emmart_split_is_exact_for_extreme_and_random_limbs() {
    let max = (1u64 << 51) - 1;
    let mut cases = vec![
        (0, 0),
        (1, 1),
        (max, max),
        (max, 1),
        (1 << 50, 1),
        (1 << 50, 3),
        ((1 << 50) + 1, max),
    ];
    let mut g = rng(31);
    cases.extend((0..20_000).map(|_| (g.gen_range(0..=max), g.gen_range(0..=max))));
    for (a, b) in cases {
        let (h, l) = split_product(a as f64, b as f64);
        let hi = h.wrapping_sub(HI_BIAS) as i128;
        let lo = l.wrapping_sub(LO_BIAS) as i64 as i128;
        assert!(
            (-(1 << 50)..=(1 << 50)).contains(&lo),
            "low half out of range for {a}·{b}"
        );
        assert!((0..=(1 << 51)).contains(&hi));
        assert_eq!((hi << 51) + lo, a as i128 * b as i128, "{a}·{b}");
    }
    assert!(emmart::fma_self_test());
}

/// Recombining with "mask the low word to 51 bits, and if its bit 50 is set treat it as negative
/// (subtract 1 from the high word)" misreads an exact tie. For a·b = H·2⁵¹ + 2⁵⁰ with H even, the
/// FMA rounds *down* (ties to even), leaving L = +2⁵⁰, whose bit 50 is set although it is
/// positive. The raw-bit (signed) reading in `emmart_mul` is immune.
#[test]
fn emmart_tie_breaks_the_masked_recombination() {
    let naive = |a: u64, b: u64| -> i128 {
        let (h, l) = split_product(a as f64, b as f64);
        let mut hi = h.wrapping_sub(HI_BIAS) as i128;
        let lo = (l & ((1 << 51) - 1)) as i128;
        if lo & (1 << 50) != 0 {
            hi -= 1;
        }
        (hi << 51) + lo
    };
    let (a, b) = (1u64 << 50, 1u64); // a·b = 2⁵⁰ = 0·2⁵¹ + 2⁵⁰, a tie rounded to H = 0
    assert_ne!(
        naive(a, b),
        (a * b) as i128,
        "the masked reading gets the tie wrong"
    );
    // away from ties the masked reading is fine
    assert_eq!(naive(12345, 67890), 12345 * 67890);
    // and the signed reading is right on the tie
    let (h, l) = split_product(a as f64, b as f64);
    assert_eq!(
        ((h.wrapping_sub(HI_BIAS) as i128) << 51) + l.wrapping_sub(LO_BIAS) as i64 as i128,
        (a * b) as i128
    );
}

#[test]
fn barrett_corrections_stay_within_their_bounds() {
    macro_rules! check {
        ($m:ident, $f:expr) => {{
            let k = &fields::$m::BARRETT;
            let p = modulus($f);
            let mut g = rng(41);
            let mut xs = edge_values($f, &[k.n, 64 * fields::$m::N64 as u32], &[64]);
            xs.extend((0..150).map(|_| random_below(&mut g, &p)));
            let (mut worst_vanilla, mut worst_domb) = (0, 0);
            for a in &xs {
                for b in &xs {
                    let aw: [u64; fields::$m::N64] = words::truncate(&canon(a));
                    let bw: [u64; fields::$m::N64] = words::truncate(&canon(b));
                    let (r, c) = barrett::barrett_mul_counted(&aw, &bw, k);
                    assert_eq!(big_words(&r), a * b % &p);
                    worst_vanilla = worst_vanilla.max(c);
                    let (r, c) = barrett::barrett_domb_mul_counted(&aw, &bw, k);
                    assert_eq!(big_words(&r), a * b % &p);
                    worst_domb = worst_domb.max(c);
                }
            }
            assert!(worst_vanilla <= 2, "{}: vanilla needed {worst_vanilla}", $f);
            assert!(
                worst_domb <= k.domb_max_corrections(),
                "{}: Domb needed {worst_domb}",
                $f
            );
            assert!(k.domb_max_corrections() <= 4, "{}", $f);
        }};
    }
    check!(bn254_fq, Field::Bn254Fq);
    check!(bn254_fr, Field::Bn254Fr);
    check!(bls12_377_fq, Field::Bls12_377Fq);
    check!(bls12_377_fr, Field::Bls12_377Fr);
    check!(bls12_381_fq, Field::Bls12_381Fq);
    check!(bls12_381_fr, Field::Bls12_381Fr);
}

/// `barrett_steps` exposes the derivation's values: each is checked against num-bigint here, and
/// the estimate against the true quotient (at most 2 below it).
#[test]
fn barrett_steps_follow_the_derivation() {
    macro_rules! check {
        ($m:ident, $f:expr) => {{
            const N: usize = fields::$m::N64;
            let k = &fields::$m::BARRETT;
            let p = modulus($f);
            let m = big_words(&k.m[..=N]);
            assert_eq!(m, pow2(2 * k.n) / &p, "{}: m", $f);
            let mut g = rng(43);
            let mut xs = edge_values($f, &[k.n, 64 * N as u32], &[64]);
            xs.extend((0..40).map(|_| random_below(&mut g, &p)));
            for a in &xs {
                for b in &xs {
                    let z = a * b;
                    let digits = z.to_u64_digits();
                    let zw: [u64; 2 * N] =
                        core::array::from_fn(|i| digits.get(i).copied().unwrap_or(0));
                    let s = barrett::barrett_steps(&zw, k);
                    let z1 = &z >> (k.n - 1);
                    assert_eq!(big_words(&s.z1), z1, "{}: z1", $f);
                    assert_eq!(big_words(&s.z1_m), &z1 * &m, "{}: z1·m", $f);
                    let q_hat = (&z1 * &m) >> (k.n + 1);
                    assert_eq!(big_words(&s.q_hat), q_hat, "{}: q̂", $f);
                    let q = &z / &p;
                    assert!(
                        &q_hat <= &q && &q - &q_hat <= BigUint::from(2u8),
                        "{}: q − q̂",
                        $f
                    );
                    assert_eq!(
                        big_words(&s.uncorrected),
                        &z - &q_hat * &p,
                        "{}: z − q̂p",
                        $f
                    );
                    assert_eq!(
                        BigUint::from(s.corrections),
                        &q - &q_hat,
                        "{}: corrections",
                        $f
                    );
                    assert_eq!(big_words(&s.remainder), &z % &p, "{}: remainder", $f);
                    assert_eq!(
                        barrett::barrett_reduce(&zw, k),
                        (s.remainder, s.corrections)
                    );
                }
            }
        }};
    }
    check!(bn254_fq, Field::Bn254Fq);
    check!(bn254_fr, Field::Bn254Fr);
    check!(bls12_377_fq, Field::Bls12_377Fq);
    check!(bls12_377_fr, Field::Bls12_377Fr);
    check!(bls12_381_fq, Field::Bls12_381Fq);
    check!(bls12_381_fr, Field::Bls12_381Fr);
}

#[test]
fn barrett_converts_into_montgomery_form() {
    let k = &fields::bls12_381_fq::BARRETT;
    let m = &fields::bls12_381_fq::W64;
    let p = modulus(Field::Bls12_381Fq);
    let mut g = rng(51);
    for _ in 0..200 {
        let x = random_below(&mut g, &p);
        let xw: [u64; 6] = words::truncate(&canon(&x));
        let via_barrett = barrett::to_montgomery(&xw, &m.r, k);
        let via_cios = cios::cios(&xw, &m.r2, m);
        assert_eq!(via_barrett, via_cios);
        assert_eq!(big_words(&via_barrett), x * pow2(384) % &p);
    }
}

/// The paired (two products per FMA) schedule, alone and two products interleaved, equals the
/// scalar reference limb for limb, for every limb count from 2 to 8 (odd counts exercise the zero
/// lane past the end of every row).
#[test]
fn emmart_paired_schedule_matches_the_scalar_reference() {
    fn run<const N: usize>(f: &'static FieldParams) {
        let k = EmmartParams::<N>::new(MontParams::new(f, 51));
        let p = big(&f.modulus);
        for a in &stress_inputs(&p, N as u64) {
            for b in &stress_inputs(&p, 100 + N as u64) {
                let (aw, bw) = (limbs_n::<N>(a, 51), limbs_n::<N>(b, 51));
                let scalar = emmart::emmart_mul(&aw, &bw, &k);
                assert_eq!(
                    emmart::emmart_mul_paired::<PortableLanes, N>(&aw, &bw, &k),
                    scalar,
                    "{} N={N}",
                    f.name
                );
                assert_eq!(big_limbs(&scalar, 51), mont_ref(a, b, &p, 51 * N as u32));
                // two products in lockstep: a·b beside a·a
                assert_eq!(
                    emmart::emmart_mul_interleaved::<PortableLanes, N, 2>(
                        [&aw, &aw],
                        [&bw, &aw],
                        &k
                    ),
                    [scalar, emmart::emmart_mul(&aw, &aw, &k)],
                    "{} N={N}, interleaved",
                    f.name
                );
            }
        }
    }
    const P101: FieldParams = FieldParams::from_hex("2^101-1", "0x1fffffffffffffffffffffffff");
    const P151: FieldParams =
        FieldParams::from_hex("2^151-1", "0x7fffffffffffffffffffffffffffffffffffff");
    const P199: FieldParams = FieldParams::from_hex(
        "2^199-1",
        "0x7fffffffffffffffffffffffffffffffffffffffffffffffff",
    );
    const P300: FieldParams = FieldParams::from_hex(
        "2^300-153",
        "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff67",
    );
    run::<2>(&P101);
    run::<3>(&P151);
    run::<4>(&P199);
    run::<5>(&ALL_ONES_253);
    run::<6>(&P300);
    run::<7>(&ALL_ONES_253);
    run::<8>(&ALL_ONES_381);
}

/// Lazy Emmart products (`emmart_mul_interleaved_lazy`): where 4p ≤ R they skip the final
/// subtraction, and the bound of their comment holds — for operands below 2p (reduced values and
/// values + p, edge values included) the lazy result is below 2p and congruent to the Montgomery
/// product, and the full product of such operands is the reduced one. Where 4p > R (BN254) the lazy
/// product is the full one (and only reduced operands ever occur).
#[test]
fn emmart_lazy_products_stay_below_2p() {
    fn run<const N: usize>(k: &EmmartParams<N>, f: &FieldParams, lazy: bool) {
        assert_eq!(k.lazy, lazy, "{}", f.name);
        let p = big(&f.modulus);
        let mut xs = stress_inputs(&p, 7);
        if lazy {
            // operands below 2p, p and 2p − 1 included: what lazy products feed to products
            let lifted: Vec<BigUint> = xs.iter().map(|x| x + &p).collect();
            xs.extend(lifted);
        }
        for a in &xs {
            for b in xs.iter().step_by(3) {
                let (aw, bw) = (limbs_n::<N>(a, 51), limbs_n::<N>(b, 51));
                let want = mont_ref(a, b, &p, 51 * N as u32);
                let [lazy_out, other] = emmart::emmart_mul_interleaved_lazy::<PortableLanes, N, 2>(
                    [&aw, &bw],
                    [&bw, &aw],
                    k,
                );
                let got = big_limbs(&lazy_out, 51);
                assert!(got < &p + &p, "{}: lazy result below 2p", f.name);
                assert_eq!(&got % &p, want, "{}: lazy result congruent", f.name);
                assert_eq!(other, lazy_out, "commutes");
                if !lazy {
                    assert_eq!(got, want, "{}: not lazy, fully reduced", f.name);
                }
                let [full] = emmart::emmart_mul_interleaved::<PortableLanes, N, 1>([&aw], [&bw], k);
                assert_eq!(
                    big_limbs(&full, 51),
                    want,
                    "{}: full product of lazy operands",
                    f.name
                );
            }
        }
    }
    each_emmart_field!(run: bls12_377_fq(true), bls12_381_fq(true), bls12_377_fr(true), bn254_fq(false), bn254_fr(false));
}

/// The full product's branch on the top limb (`EmmartParams::rare_subtraction`): set for the BLS12
/// base fields only, and where set the rare case is still reduced — p (a lazy zero) times any
/// b ≠ 0 gives exactly t = p before the subtraction (q = R − b), which must come out as 0, and
/// p − 1 times R mod p (one) gives p − 1, whose top limb equals p's.
#[test]
fn emmart_rare_subtraction_still_reduces() {
    fn run<const N: usize>(k: &EmmartParams<N>, f: &FieldParams, rare: bool) {
        assert_eq!(k.rare_subtraction, rare, "{}", f.name);
        let p = big(&f.modulus);
        let pw = limbs_n::<N>(&p, 51);
        for b in stress_inputs(&p, 13)
            .iter()
            .filter(|b| **b != BigUint::from(0u32))
        {
            let bw = limbs_n::<N>(b, 51);
            let [zero, also] =
                emmart::emmart_mul_interleaved::<PortableLanes, N, 2>([&pw, &bw], [&bw, &pw], k);
            assert_eq!(zero, [0; N], "{}: p·b", f.name);
            assert_eq!(also, [0; N], "{}: b·p", f.name);
        }
        let top = limbs_n::<N>(&(&p - 1u32), 51);
        let [got] = emmart::emmart_mul_interleaved::<PortableLanes, N, 1>([&top], [&k.mont.r], k);
        assert_eq!(got, top, "{}: (p − 1)·1", f.name);
    }
    each_emmart_field!(run: bls12_377_fq(true), bls12_381_fq(true), bls12_377_fr(false), bn254_fq(false), bn254_fr(false));
}

/// The lazy difference (`primitives::sub_lazy_radix`) on 51-bit limbs: for operands below p
/// (edge values included, a = b among them) it is congruent to a − b and below 2p — the operand
/// bound of lazy Emmart products — and a full product of it is the product of the reduced
/// difference.
#[test]
fn lazy_difference_stays_below_2p() {
    fn run<const N: usize>(k: &EmmartParams<N>, f: &FieldParams) {
        let p = big(&f.modulus);
        let xs = stress_inputs(&p, 11);
        for a in &xs {
            for b in xs.iter().step_by(2) {
                let (aw, bw) = (limbs_n::<N>(a, 51), limbs_n::<N>(b, 51));
                let lazy = primitives::sub_lazy_radix(&aw, &bw, &k.mont.p, 51);
                let got = big_limbs(&lazy, 51);
                let want = (a + &p - b) % &p;
                assert!(got < &p + &p, "{}: below 2p", f.name);
                assert_eq!(&got % &p, want, "{}: congruent to a − b", f.name);
                let reduced = primitives::sub_mod_radix(&aw, &bw, &k.mont.p, 51);
                assert_eq!(big_limbs(&reduced, 51), want, "{}: sub_mod_radix", f.name);
                let [x, y] = emmart::emmart_mul_interleaved::<PortableLanes, N, 2>(
                    [&lazy, &reduced],
                    [&aw, &aw],
                    k,
                );
                assert_eq!(x, y, "{}: same product as the reduced difference", f.name);
            }
        }
    }
    each_emmart_field!(run: bls12_377_fq, bls12_381_fq, bls12_377_fr);
}

/// Two independent products in the two lanes (`emmart_lanes::emmart_mul_pair`, lane = product):
/// the same outputs as the interleaved product with K = 2 and as num-bigint, full and lazy, on
/// every 51-bit field — operands below 2p, the edges of `stress_inputs` (0, 1, p − 1, values
/// near p and R) and two different products in the lanes, so that one lane's carry or quotient
/// leaking into the other would show.
#[test]
fn emmart_pair_lanes_equal_the_interleaved_product() {
    use fastmsm_mont::emmart_lanes::{PortablePair, emmart_mul_pair, emmart_mul_pair_lazy};
    fn run<const N: usize>(k: &EmmartParams<N>, f: &FieldParams, lazy: bool) {
        let p = big(&f.modulus);
        let mut xs = stress_inputs(&p, 11);
        if lazy {
            let lifted: Vec<BigUint> = xs.iter().map(|x| x + &p).collect();
            xs.extend(lifted);
        }
        for (i, a) in xs.iter().enumerate() {
            for (j, b) in xs.iter().enumerate().step_by(2) {
                let c = &xs[(i + j + 1) % xs.len()];
                let d = &xs[(3 * i + j) % xs.len()];
                let (aw, bw, cw, dw) = (
                    limbs_n::<N>(a, 51),
                    limbs_n::<N>(b, 51),
                    limbs_n::<N>(c, 51),
                    limbs_n::<N>(d, 51),
                );
                let full = emmart_mul_pair::<PortablePair, N>([&aw, &cw], [&bw, &dw], k);
                assert_eq!(
                    full,
                    emmart::emmart_mul_interleaved::<PortableLanes, N, 2>(
                        [&aw, &cw],
                        [&bw, &dw],
                        k
                    ),
                    "{}: full",
                    f.name
                );
                assert_eq!(
                    big_limbs(&full[0], 51),
                    mont_ref(a, b, &p, 51 * N as u32),
                    "{}",
                    f.name
                );
                assert_eq!(
                    big_limbs(&full[1], 51),
                    mont_ref(c, d, &p, 51 * N as u32),
                    "{}",
                    f.name
                );
                assert_eq!(
                    emmart_mul_pair_lazy::<PortablePair, N>([&aw, &cw], [&bw, &dw], k),
                    emmart::emmart_mul_interleaved_lazy::<PortableLanes, N, 2>(
                        [&aw, &cw],
                        [&bw, &dw],
                        k
                    ),
                    "{}: lazy",
                    f.name
                );
            }
        }
    }
    each_emmart_field!(run: bls12_377_fq(true), bls12_381_fq(true), bls12_377_fr(true), bn254_fq(false), bn254_fr(false));
}
