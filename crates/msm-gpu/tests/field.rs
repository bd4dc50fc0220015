//! WGSL field arithmetic, every field × limb width, against num-bigint and the CPU twins
//! (`fastmsm_mont::gpu_twin`), on the test adapter (lavapipe in CI).

use fastmsm_gpu::GpuContext;
use fastmsm_gpu::field::{
    FieldKernels, INT64_LIMB_WIDTHS, LIMB_WIDTHS, Op, default_limb_bits, supported_limb_widths,
};
use fastmsm_gpu::mont_wgsl::{KernelForm, mont_mul_source_in};
use fastmsm_gpu::testing::{block_on, gpu, gpu_int64};
use fastmsm_mont::{Canonical, Field, Variant, limb_constants, raw_product};
use num_bigint::{BigUint, RandBigInt};
use rand::{SeedableRng, rngs::StdRng};

fn big(x: &Canonical) -> BigUint {
    x.iter()
        .rev()
        .fold(BigUint::from(0u32), |acc, &w| (acc << 64u32) + w)
}

fn canonical(x: &BigUint) -> Canonical {
    let mut out = [0u64; fastmsm_mont::WORDS];
    for (i, d) in x.to_u64_digits().into_iter().enumerate() {
        out[i] = d;
    }
    out
}

fn modulus(field: Field) -> BigUint {
    big(&field.params().modulus)
}

/// Edge values (0, 1, 2, p−1, p−2, R mod p, 2^(bits−1), values just under p) then random ones.
fn inputs(field: Field, r: &BigUint, random: usize, seed: u64) -> Vec<Canonical> {
    let p = modulus(field);
    let mut v: Vec<BigUint> = vec![
        0u32.into(),
        1u32.into(),
        2u32.into(),
        &p - 1u32,
        &p - 2u32,
        r % &p,
        BigUint::from(1u32) << (p.bits() - 1),
    ];
    v.extend((3u32..6).map(|k| &p - (BigUint::from(1u32) << (k * 20))));
    let mut rng = StdRng::seed_from_u64(seed);
    v.extend((0..random).map(|_| rng.gen_biguint_below(&p)));
    v.iter().map(canonical).collect()
}

fn twin(limb_bits: u32) -> Variant {
    fastmsm_gpu::field::cpu_twin(limb_bits).expect("supported width")
}

fn check(field: Field, limb_bits: u32, form: KernelForm) {
    let ctx = gpu();
    let kernels = block_on(FieldKernels::with_form(ctx, field, limb_bits, form)).unwrap();
    let p = modulus(field);
    let r = BigUint::from(1u32) << (kernels.limbs() as u32 * limb_bits);
    let r_inv = r.modinv(&p).unwrap();
    let a = inputs(field, &r, 200, limb_bits as u64);
    let mut b = inputs(field, &r, 200, 1000 + limb_bits as u64);
    b.rotate_left(3); // pair edges with other edges, not only with themselves
    let (la, lb) = (kernels.to_limbs(&a), kernels.to_limbs(&b));
    let run = |op, rhs: &[u32], iterations| {
        kernels.from_limbs(&block_on(kernels.run(ctx, op, &la, rhs, iterations)).unwrap())
    };
    let label = format!("{} w={limb_bits} {}", field.name(), form.name());

    let mul = run(Op::Mul, &lb, 0);
    let add = run(Op::Add, &lb, 0);
    let sub = run(Op::Sub, &lb, 0);
    let neg = run(Op::Neg, &[], 0);
    let dbl = run(Op::Double, &[], 0);
    let into = run(Op::IntoMont, &[], 0);
    let barrett = run(Op::IntoMontBarrett, &[], 0);
    let out = run(Op::OutOfMont, &[], 0);
    let chain = run(Op::Chain, &lb, 7);
    for i in 0..a.len() {
        let (x, y) = (big(&a[i]), big(&b[i]));
        let ctx = format!("{label}: element {i}, a={x:#x}, b={y:#x}");
        assert_eq!(big(&mul[i]), &x * &y * &r_inv % &p, "mul {ctx}");
        assert_eq!(
            mul[i],
            raw_product(twin(limb_bits), field, &a[i], &b[i]).unwrap(),
            "mul vs CPU twin {ctx}"
        );
        assert_eq!(big(&add[i]), (&x + &y) % &p, "add {ctx}");
        assert_eq!(big(&sub[i]), (&x + &p - &y) % &p, "sub {ctx}");
        assert_eq!(big(&neg[i]), (&p - &x) % &p, "neg {ctx}");
        assert_eq!(big(&dbl[i]), (&x * 2u32) % &p, "double {ctx}");
        assert_eq!(big(&into[i]), &x * &r % &p, "into Montgomery form {ctx}");
        assert_eq!(
            big(&barrett[i]),
            &x * &r % &p,
            "into Montgomery form by Barrett {ctx}"
        );
        assert_eq!(
            big(&out[i]),
            &x * &r_inv % &p,
            "out of Montgomery form {ctx}"
        );
        let expected_chain = (0..7).fold(x.clone(), |acc, _| acc * &y * &r_inv % &p);
        assert_eq!(big(&chain[i]), expected_chain, "chain {ctx}");
    }
}

/// Every field in the order its kernels are checked: the base fields first (the MSM's), then the
/// scalar fields (the WGSL throughput widget's), so that a shape both have is checked on a base field.
const FIELDS: [Field; 6] = [
    Field::Bn254Fq,
    Field::Bls12_377Fq,
    Field::Bls12_381Fq,
    Field::Bn254Fr,
    Field::Bls12_377Fr,
    Field::Bls12_381Fr,
];

/// The kernel source of `field` at `limb_bits` in `form` with every number replaced by `#`: the
/// shape of the code the generators emit, whatever the field's constants. Two configurations of
/// one shape run the same instructions on other constants (the generators take the field only
/// through its constants: limb count, modulus, μ, R, R², Barrett's m), which the CPU twins check
/// for every field and width (fastmsm-mont's tests); a shape that differs in anything else (a
/// limb more, a carry elsewhere, a zero limb of p skipped) is a path of its own.
fn shape(field: Field, limb_bits: u32, form: KernelForm) -> String {
    let k = limb_constants(field.params(), limb_bits).unwrap();
    let source = fastmsm_gpu::field::shader_source_in(&k, 64, form).unwrap();
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let mut in_word = false;
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() && !in_word {
            // a number (decimal or 0x…, with its u/i suffix): one '#'
            while chars.peek().is_some_and(|d| d.is_ascii_alphanumeric()) {
                chars.next();
            }
            out.push('#');
            continue;
        }
        in_word = c.is_ascii_alphanumeric() || c == '_';
        out.push(c);
    }
    out
}

/// The product's forms that differ at this width (the CIOS widths have one form).
fn forms(field: Field, limb_bits: u32) -> Vec<KernelForm> {
    let k = limb_constants(field.params(), limb_bits).unwrap();
    let unrolled = mont_mul_source_in(&k, KernelForm::Unrolled);
    KernelForm::ALL
        .into_iter()
        .filter(|&f| f == KernelForm::Unrolled || mont_mul_source_in(&k, f) != unrolled)
        .collect()
}

/// The configurations each field's test checks: every width this adapter runs (the portable ones
/// and, with SHADER_INT64, the 64-bit-product ones) in every form, each shape once — on the first
/// field of `FIELDS` that has it. Every generator path at every width runs on the GPU, and no
/// kernel is compiled twice for constants alone: on lavapipe each costs seconds of LLVM time.
fn configurations(field: Field) -> Vec<(u32, KernelForm)> {
    let widths = supported_limb_widths(gpu_int64());
    let mut seen = std::collections::HashSet::new();
    let mut mine = Vec::new();
    for f in FIELDS {
        for &w in &widths {
            for form in forms(f, w) {
                if seen.insert(shape(f, w, form)) && f == field {
                    mine.push((w, form));
                }
            }
        }
    }
    mine
}

macro_rules! field_tests {
    ($($name:ident: $field:expr;)*) => {$(
        #[test]
        fn $name() {
            let configurations = configurations($field);
            eprintln!("{}: {configurations:?}", $field.name());
            for (w, form) in configurations {
                check($field, w, form);
            }
        }
    )*};
}

field_tests! {
    bn254_fq: Field::Bn254Fq;
    bn254_fr: Field::Bn254Fr;
    bls12_377_fq: Field::Bls12_377Fq;
    bls12_377_fr: Field::Bls12_377Fr;
    bls12_381_fq: Field::Bls12_381Fq;
    bls12_381_fr: Field::Bls12_381Fr;
}

/// The shapes above tell the paths apart: a field's limb count, the width, the form and a zero
/// limb of p each change the shape; the same width on a field of the same size does not.
#[test]
fn shapes_tell_paths_apart() {
    let u = KernelForm::Unrolled;
    // BN254's two fields: 254 bits each, the same code on other constants.
    assert_eq!(shape(Field::Bn254Fq, 13, u), shape(Field::Bn254Fr, 13, u));
    assert_ne!(shape(Field::Bn254Fq, 13, u), shape(Field::Bn254Fq, 14, u));
    assert_ne!(
        shape(Field::Bn254Fq, 13, u),
        shape(Field::Bls12_377Fq, 13, u)
    );
    assert_ne!(
        shape(Field::Bn254Fq, 13, u),
        shape(Field::Bn254Fq, 13, KernelForm::Compact)
    );
    // Every field keeps at least one configuration of its own or shares all of its shapes.
    let total: usize = FIELDS.iter().map(|&f| configurations(f).len()).sum();
    let all: usize = FIELDS
        .iter()
        .map(|&f| {
            supported_limb_widths(gpu_int64())
                .into_iter()
                .map(|w| forms(f, w).len())
                .sum::<usize>()
        })
        .sum();
    eprintln!("field kernels: {total} shapes of {all} configurations");
    assert!(total < all && total >= 2 * supported_limb_widths(gpu()).len());
}

#[test]
fn rejects_unsupported_widths_and_bad_lengths() {
    let ctx = gpu();
    assert!(block_on(FieldKernels::new(ctx, Field::Bn254Fq, 17)).is_err());
    assert!(block_on(FieldKernels::new(ctx, Field::Bn254Fq, 11)).is_err());
    let k = block_on(FieldKernels::new(ctx, Field::Bn254Fq, 13)).unwrap();
    let err = block_on(k.run(ctx, Op::Mul, &[0; 20], &[0; 40], 0))
        .unwrap_err()
        .to_string();
    assert!(err.contains("lengths differ"), "{err}");
    let err = block_on(k.run(ctx, Op::Add, &[0; 21], &[0; 21], 0))
        .unwrap_err()
        .to_string();
    assert!(err.contains("whole number"), "{err}");
}

/// A device without 64-bit shader integers (as in a browser) runs the portable widths only, and a
/// native width is refused with a message naming the feature and the adapter.
#[test]
fn native_widths_need_shader_int64() {
    let ctx = block_on(GpuContext::with_optional_features(
        wgpu::Features::TIMESTAMP_QUERY,
    ))
    .unwrap();
    assert!(!ctx.features.contains(wgpu::Features::SHADER_INT64));
    assert_eq!(supported_limb_widths(&ctx), LIMB_WIDTHS);
    assert_eq!(default_limb_bits(&ctx, Field::Bls12_377Fq), 15);
    for w in INT64_LIMB_WIDTHS {
        let err = match block_on(FieldKernels::new(&ctx, Field::Bn254Fq, w)) {
            Ok(_) => panic!("{w}-bit limbs accepted without SHADER_INT64"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("SHADER_INT64")
                && err.contains(&ctx.info.name)
                && err.contains(&format!("{w}-bit")),
            "{err}"
        );
    }
}

#[test]
fn kernel_cache_compiles_once_per_configuration() {
    let ctx = gpu();
    let mut cache = fastmsm_gpu::field::FieldKernelCache::default();
    let a = block_on(cache.get(ctx, Field::Bn254Fr, 13, 64)).unwrap();
    let b = block_on(cache.get(ctx, Field::Bn254Fr, 13, 64)).unwrap();
    let c = block_on(cache.get(ctx, Field::Bn254Fr, 14, 64)).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert!(!std::sync::Arc::ptr_eq(&a, &c));
}
