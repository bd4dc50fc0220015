//! Every number the book's prose cites that follows from the code (limb counts, product counts,
//! window rules, the GPU plan of the worked examples, buffer sizes, parameter records, carry
//! budgets, configuration defaults), computed here from the crates themselves and kept in
//! `book/derived.json`, which the book's `{{num KEY}}` placeholders read
//! (`wasm-demo/bench/figures.js`). The test fails when the file and the code disagree, so a change
//! that moves a cited number fails `make test` until the page changes with it. To refresh the file
//! after a change: `FASTMSM_BLESS=1 cargo test -p fastmsm-gpu --test main book_numbers`.
//!
//! Keys are `area.quantity[.detail]`; a value is a number, a string, or a table
//! (`{"columns": [...], "rows": [[...]]}`, rendered as Markdown where a placeholder stands alone on
//! a line). Nothing here needs a GPU: the plan and the buffer layout are computed the way
//! `GpuMsm` computes them, from a device profile and a binding limit.

use std::collections::BTreeMap;

use fastmsm_curves::sw::{self, SwCurve};
use fastmsm_curves::te::{self, TeCurve};
use fastmsm_curves::{Bls12_377, Bls12_381, Bn254, EdBls12_377, Group, PrimeField};
use fastmsm_gpu::field::{INT64_LIMB_WIDTHS, LIMB_WIDTHS, radix64_limb_bits};
use fastmsm_gpu::mont_wgsl::count_ops;
use fastmsm_gpu::msm::contract::{Binding, Params};
use fastmsm_gpu::msm::curve::{ADD_STEPS, GeneralAdd, MixedAdd, PREFIX_THREADS, WORKGROUP_SIZE};
use fastmsm_gpu::msm::inspect::layout;
use fastmsm_gpu::msm::loops::ADDITION_PRODUCTS;
use fastmsm_gpu::msm::plan::{FAN_IN, MAX_WINDOW_BITS, MIN_CHUNK, RULE_MAX_WINDOW_BITS};
use fastmsm_gpu::msm::submit::{DEFAULT_MAX_SUBMISSION_SECONDS, SubmitModel};
use fastmsm_gpu::msm::{GpuCurve, Plan, RunOptions, Stage, default_window_bits};
use fastmsm_gpu::profile::DeviceProfile;
use fastmsm_mont::params::{limbs_covering, limbs_with_spare_bit};
use fastmsm_mont::{Field, carry_budget, carry_budget_table, limb_constants};
use fastmsm_msm::batch_inv::batch_inverse;
use fastmsm_msm::count::{Counted, CountedSw, CountedTe, OpCounts, count_ops as count_field_ops};
use fastmsm_msm::digits::num_windows;
use fastmsm_msm::glv::glv_of;
use fastmsm_msm::group::affine_add;
use fastmsm_msm::scalar::{Scalar, bit_len};
use fastmsm_msm::window::{WINDOW_RANGE, WINDOW_SAMPLE, cost, window_size};
use fastmsm_msm::{AffineAdd, MsmGroup};
use fastmsm_msm::{AllAffineConfig, BatchAffineConfig};
use num_bigint::BigUint;
use serde_json::{Value, json};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
const FILE: &str = "book/derived.json";

/// The derived numbers, by key.
#[derive(Default)]
struct Numbers(BTreeMap<String, Value>);

impl Numbers {
    fn put(&mut self, key: impl Into<String>, value: impl Into<Value>) {
        let key = key.into();
        let value = value.into();
        if let Some(old) = self.0.insert(key.clone(), value.clone())
            && old != value
        {
            panic!("{key}: two values, {old} and {value}");
        }
    }
    /// A float, rounded to 4 decimals so that the file does not depend on the last bit of a
    /// platform's `log2`.
    fn real(&mut self, key: impl Into<String>, x: f64) {
        self.put(key, json!((x * 1e4).round() / 1e4));
    }
    fn table(&mut self, key: impl Into<String>, columns: &[&str], rows: Vec<Vec<Value>>) {
        self.put(key, json!({ "columns": columns, "rows": rows }));
    }
}

fn log2_big(x: &BigUint) -> f64 {
    let bits = x.bits();
    let shift = bits.saturating_sub(64);
    let top = (x >> shift).to_u64_digits().first().copied().unwrap_or(0) as f64;
    top.log2() + shift as f64
}

fn big(words: &[u64]) -> BigUint {
    BigUint::from_slice(
        &words
            .iter()
            .flat_map(|w| [*w as u32, (*w >> 32) as u32])
            .collect::<Vec<_>>(),
    )
}

fn scalar_of(words: &[u64]) -> Scalar {
    words[..4].try_into().expect("four words")
}

/// A constant of the sources that is not public: `const NAME: T = VALUE;` with VALUE a literal or
/// `a << b`, read from the file so that the book follows it.
fn source_const(path: &str, name: &str) -> u64 {
    let text = std::fs::read_to_string(format!("{ROOT}{path}")).unwrap();
    let at = text
        .find(&format!("const {name}:"))
        .unwrap_or_else(|| panic!("{path}: no const {name}"));
    let expr = text[at..]
        .split_once('=')
        .unwrap()
        .1
        .split(';')
        .next()
        .unwrap();
    let lit = |s: &str| s.trim().replace('_', "").parse::<u64>().unwrap();
    match expr.split_once("<<") {
        Some((a, b)) => lit(a) << lit(b),
        None => lit(expr),
    }
}

fn curve_key(c: GpuCurve) -> &'static str {
    c.name()
}

fn scalar_modulus(c: GpuCurve) -> Scalar {
    scalar_of(&c.scalar_modulus())
}

fn fields(n: &mut Numbers) {
    n.put("fields.count", Field::ALL.len());
    let bits: Vec<u32> = Field::ALL.iter().map(|f| f.bits()).collect();
    n.put("fields.bits.min", *bits.iter().min().unwrap());
    n.put("fields.bits.max", *bits.iter().max().unwrap());
    for f in Field::ALL {
        let name = f.name();
        let p = big(&f.params().modulus);
        n.put(format!("fields.bits.{name}"), f.bits());
        n.real(format!("fields.log2.{name}"), log2_big(&p));
        let top = &p >> (f.bits() - 16) as usize;
        n.put(format!("fields.top16.{name}"), format!("0x{top:x}"));
        for w in (12..=16).chain(26..=32) {
            n.put(
                format!("limbs.{name}.w{w}"),
                limbs_with_spare_bit(f.bits(), w),
            );
        }
        n.put(format!("limbs.{name}.w51"), limbs_covering(f.bits(), 51));
        n.put(format!("limbs.{name}.w64"), limbs_covering(f.bits(), 64));
        for (w, limbs) in [
            (30, limbs_with_spare_bit(f.bits(), 30)),
            (64, limbs_covering(f.bits(), 64)),
            (13, limbs_with_spare_bit(f.bits(), 13)),
        ] {
            n.put(
                format!("mont.products.{name}.w{w}"),
                2 * limbs * limbs + limbs,
            );
            n.put(format!("mont.squares.{name}.w{w}"), limbs * limbs);
        }
        n.put(
            format!("mont.r_bits.{name}.w30"),
            30 * limbs_with_spare_bit(f.bits(), 30),
        );
    }
    // The reduced radix against 32-bit limbs for a 254-bit modulus: 2n² more products.
    let (n30, n32) = (limbs_with_spare_bit(254, 30), limbs_covering(254, 32));
    n.put("mont.limbs.bn254.w32", n32);
    n.put(
        "mont.extra_products.bn254.w30_vs_w32",
        2 * n30 * n30 - 2 * n32 * n32,
    );
    n.put(
        "mont.lanes.scalar_columns.n9",
        fastmsm_mont::reduced_radix_lanes::scalar_columns(9),
    );
    n.put(
        "mont.lanes.scalar_columns.n13",
        fastmsm_mont::reduced_radix_lanes::scalar_columns(13),
    );
    // Which fields the no-carry loops accept (their constants come from checked constructors).
    use fastmsm_mont::fields::*;
    macro_rules! accepted {
        ($check:ident) => {
            [
                bn254_fq::$check.is_ok(),
                bn254_fr::$check.is_ok(),
                bls12_377_fq::$check.is_ok(),
                bls12_377_fr::$check.is_ok(),
                bls12_381_fq::$check.is_ok(),
                bls12_381_fr::$check.is_ok(),
            ]
        };
    }
    let no_carry = accepted!(NO_CARRY);
    let lazy = accepted!(NO_CARRY_LAZY);
    n.put(
        "mont.no_carry.count",
        no_carry.iter().filter(|&&b| b).count(),
    );
    n.put(
        "mont.no_carry_lazy.count",
        lazy.iter().filter(|&&b| b).count(),
    );
    let refused: Vec<&str> = Field::ALL
        .iter()
        .zip(lazy)
        .filter(|(_, ok)| !ok)
        .map(|(f, _)| f.name())
        .collect();
    n.put("mont.no_carry_lazy.refused", refused.join(", "));
    let domb = [
        bn254_fq::BARRETT.domb_max_corrections(),
        bn254_fr::BARRETT.domb_max_corrections(),
        bls12_377_fq::BARRETT.domb_max_corrections(),
        bls12_377_fr::BARRETT.domb_max_corrections(),
        bls12_381_fq::BARRETT.domb_max_corrections(),
        bls12_381_fr::BARRETT.domb_max_corrections(),
    ];
    n.put("barrett.domb.max_corrections", *domb.iter().max().unwrap());

    // Emmart's 51-bit limbs.
    let emmart = [
        (
            Field::Bn254Fq,
            bn254_fq::EMMART.lazy,
            bn254_fq::EMMART.rare_subtraction,
        ),
        (
            Field::Bn254Fr,
            bn254_fr::EMMART.lazy,
            bn254_fr::EMMART.rare_subtraction,
        ),
        (
            Field::Bls12_377Fq,
            bls12_377_fq::EMMART.lazy,
            bls12_377_fq::EMMART.rare_subtraction,
        ),
        (
            Field::Bls12_377Fr,
            bls12_377_fr::EMMART.lazy,
            bls12_377_fr::EMMART.rare_subtraction,
        ),
        (
            Field::Bls12_381Fq,
            bls12_381_fq::EMMART.lazy,
            bls12_381_fq::EMMART.rare_subtraction,
        ),
        (
            Field::Bls12_381Fr,
            bls12_381_fr::EMMART.lazy,
            bls12_381_fr::EMMART.rare_subtraction,
        ),
    ];
    use fastmsm_mont::emmart::{HI_BIAS, LIMB_BITS, LO_BIAS, split_product};
    n.put("emmart.limb_bits", LIMB_BITS);
    n.put("emmart.hi_bias", format!("0x{HI_BIAS:016x}"));
    n.put("emmart.lo_bias", format!("0x{LO_BIAS:016x}"));
    n.put(
        "emmart.c1",
        format!("0x{:016x}", fastmsm_mont::emmart::C1.to_bits()),
    );
    n.put(
        "emmart.c2",
        format!("0x{:016x}", fastmsm_mont::emmart::C2.to_bits()),
    );
    n.put("emmart.mask", format!("0x{:x}", (1u64 << LIMB_BITS) - 1));
    n.put(
        "emmart.rare_subtraction_bits",
        source_const("crates/mont/src/emmart.rs", "RARE_SUBTRACTION_BITS"),
    );
    for (f, lazy, rare) in emmart {
        let name = f.name();
        let limbs = limbs_covering(f.bits(), LIMB_BITS);
        let r_bits = LIMB_BITS as usize * limbs;
        let p = big(&f.params().modulus);
        n.put(format!("emmart.r_bits.{name}"), r_bits);
        n.put(format!("emmart.lazy.{name}"), lazy);
        n.put(format!("emmart.rare_subtraction.{name}"), rare);
        // t ≥ p for about one product in R/4p; the top-limb test misses the results within
        // 2^(R bits − 51) of p, a share 2^(R bits − 51)/p of them.
        n.real(
            format!("emmart.log2_r_over_4p.{name}"),
            r_bits as f64 - log2_big(&p) - 2.0,
        );
        n.put(
            format!("emmart.below_top_limb_bits.{name}"),
            r_bits - LIMB_BITS as usize,
        );
        n.real(
            format!("emmart.top_limb_miss_log2.{name}"),
            log2_big(&p) - (r_bits - LIMB_BITS as usize) as f64,
        );
    }
    let lazy_fields: Vec<&str> = emmart.iter().filter(|e| e.1).map(|e| e.0.name()).collect();
    n.put("emmart.lazy_fields", lazy_fields.join(", "));
    // The worked examples of the split: P = H·2^51 + L.
    let mut rows = Vec::new();
    for (a, b) in [
        (0x7_ffff_ffff_ffffu64, 3u64),
        (0x5_5555_5555_5555, 0x3_3333_3333_3333),
        (0x4_0000_0000_0000, 1),
    ] {
        let (hi, lo) = split_product(a as f64, b as f64);
        let h = hi - HI_BIAS;
        let l = lo as i128 - LO_BIAS as i128;
        assert_eq!(
            (a as u128) * (b as u128),
            ((h as u128) << 51).wrapping_add_signed(l),
            "the split must be exact"
        );
        let small = |x: i128| {
            if x.unsigned_abs() < 1 << 20 {
                x.to_string().replace('-', "−")
            } else if x.unsigned_abs().is_power_of_two() {
                format!(
                    "{}$2^{{{}}}$",
                    if x < 0 { "−" } else { "+" },
                    x.unsigned_abs().trailing_zeros()
                )
            } else {
                format!("{}`0x{:x}`", if x < 0 { "−" } else { "" }, x.unsigned_abs())
            }
        };
        rows.push(vec![
            json!(format!("`0x{a:x}`")),
            json!(format!("`0x{b:x}`")),
            json!(format!("`0x{:x}`", a as u128 * b as u128)),
            json!(format!("`0x{hi:016x}`")),
            json!(format!("`0x{lo:016x}`")),
            json!(small(h as i128)),
            json!(small(l)),
        ]);
    }
    n.table(
        "emmart.examples",
        &[
            "$a$",
            "$b$",
            "$P = ab$",
            "`hi` bits",
            "`lo` bits",
            "$H$",
            "$L$",
        ],
        rows,
    );
}

fn carry_budgets(n: &mut Numbers) {
    for (acc, widths) in [(32u32, 12..=16u32), (64, 26..=32)] {
        for w in widths {
            let b = carry_budget(w, acc);
            n.put(format!("carry.acc{acc}.w{w}.k"), b.products_per_carry);
            n.put(format!("carry.acc{acc}.w{w}.n_safe"), b.n_safe);
        }
    }
    // One more product than the budget overflows a u32 at 13 bits.
    let k13 = carry_budget(13, 32).products_per_carry;
    n.put("carry.acc32.w13.k_plus_one", k13 + 1);
    n.put(
        "carry.acc32.w13.overflow",
        (k13 + 1) * ((1u64 << 13) - 1) * ((1u64 << 13) - 1),
    );
    let table = |n: &mut Numbers, key: &str, bits: u32, acc: u32, widths: &[u32]| {
        let rows = carry_budget_table(bits, acc, widths.iter().copied());
        // The widest limbs whose budget covers a whole row of the product (nSafe ≥ n).
        let free = rows
            .iter()
            .filter(|r| r.budget.n_safe >= r.limbs as u64)
            .map(|r| r.limb_bits)
            .max()
            .unwrap();
        n.put(format!("{key}.carry_free_max_w"), free);
        n.table(
            key,
            &[
                "$w$",
                "limbs $n$",
                "$wn$",
                "most terms in a column, $2n$",
                "$k$",
                "$n_\\text{safe}$",
            ],
            rows.iter()
                .map(|r| {
                    vec![
                        json!(r.limb_bits),
                        json!(r.limbs),
                        json!(r.r_bits),
                        json!(r.max_terms),
                        json!(r.budget.products_per_carry),
                        json!(r.budget.n_safe),
                    ]
                })
                .collect(),
        );
    };
    table(
        n,
        "carry.table.bls12-381-fq.acc64",
        Field::Bls12_381Fq.bits(),
        64,
        &[32, 31, 30, 29, 28, 26],
    );
    table(
        n,
        "carry.table.bn254-fq.acc32",
        254,
        32,
        &[12, 13, 14, 15, 16],
    );
}

/// Products of one formula: the counted multiplications and squarings (each a Montgomery
/// product here) and, where it inverts, the inversions.
fn ops_row(n: &mut Numbers, key: &str, c: OpCounts) {
    n.put(format!("ops.{key}.mul"), c.mul);
    n.put(format!("ops.{key}.square"), c.square);
    n.put(format!("ops.{key}.products"), c.mul + c.square);
    n.put(format!("ops.{key}.inverse"), c.inverse);
}

fn curves(n: &mut Numbers) {
    for c in GpuCurve::ALL {
        let r = big(&c.scalar_modulus());
        let r1 = &r - 1u32;
        n.put(format!("scalar.bits.{}", curve_key(c)), r1.bits());
        n.put(format!("base.bits.{}", curve_key(c)), c.base_field().bits());
    }
    let d = <EdBls12_377 as TeCurve>::D.to_canonical();
    n.put("curves.ed.d", d[0]);
    n.put("curves.ed.cofactor", <EdBls12_377 as TeCurve>::COFACTOR[0]);

    // Fermat inversion: square-and-multiply over p − 2 from its top bit.
    let mut rows = Vec::new();
    let mut products = Vec::new();
    for (f, label) in [
        (Field::Bn254Fq, "BN254 $\\mathbb{F}_p$"),
        (Field::Bls12_377Fq, "BLS12-377 $\\mathbb{F}_p$"),
        (Field::Bls12_381Fq, "BLS12-381 $\\mathbb{F}_p$"),
        (
            Field::Bls12_377Fr,
            "Ed-on-BLS12-377 $\\mathbb{F}_p$ (BLS12-377's $r$)",
        ),
    ] {
        let e = big(&f.params().modulus) - 2u32;
        let (b, h) = (e.bits(), e.count_ones());
        let i = (b - 1) + (h - 1);
        n.put(format!("inversion.{}.bits", f.name()), b);
        n.put(format!("inversion.{}.ones", f.name()), h);
        n.put(format!("inversion.{}.products", f.name()), i);
        products.push(i);
        rows.push(vec![json!(label), json!(b), json!(h), json!(i)]);
    }
    n.put("inversion.min", *products.iter().min().unwrap());
    n.put("inversion.max", *products.iter().max().unwrap());
    n.table("inversion.table", &["field", "$b_e$", "$h_e$", "$I$"], rows);

    // Counted formulas (the widget's way: fastmsm_msm::count), on BLS12-377 and Ed-on-BLS12-377.
    type J = sw::Jacobian<CountedSw<Bls12_377>>;
    type X = sw::Xyzz<CountedSw<Bls12_377>>;
    type E = te::Extended<CountedTe<EdBls12_377>>;
    let (a, b): (Scalar, Scalar) = ([0x1234_5678, 7, 0, 0], [0x9abc_def0, 11, 3, 0]);
    let g = J::generator();
    let (p, q) = (g.mul_scalar(&a), g.mul_scalar(&b));
    let (pa, qa) = (p.to_affine(), q.to_affine());
    ops_row(n, "jacobian.add", count_field_ops(|| p.add_2007_bl(&q)).1);
    ops_row(
        n,
        "jacobian.madd",
        count_field_ops(|| p.madd_2007_bl(&qa)).1,
    );
    ops_row(n, "jacobian.dbl", count_field_ops(|| p.dbl_2009_l()).1);
    ops_row(n, "jacobian.to_affine", count_field_ops(|| p.to_affine()).1);
    let g = X::generator();
    let (p, q) = (g.mul_scalar(&a), g.mul_scalar(&b));
    let (pa2, qa2) = (p.to_affine(), q.to_affine());
    ops_row(n, "xyzz.add", count_field_ops(|| p.add_2008_s(&q)).1);
    ops_row(n, "xyzz.madd", count_field_ops(|| p.madd_2008_s(&qa2)).1);
    ops_row(n, "xyzz.dbl", count_field_ops(|| p.dbl_2008_s_1()).1);
    ops_row(n, "xyzz.mdbl", count_field_ops(|| X::mdbl_2008_s_1(&pa2)).1);
    ops_row(n, "xyzz.to_affine", count_field_ops(|| p.to_affine()).1);
    ops_row(
        n,
        "affine.add",
        count_field_ops(|| affine_add::<X>(&pa, &qa)).1,
    );
    ops_row(
        n,
        "affine.dbl",
        count_field_ops(|| affine_add::<X>(&pa, &pa)).1,
    );
    let g = E::generator();
    let (p, q) = (g.mul_scalar(&a), g.mul_scalar(&b));
    let qa = q.to_affine();
    ops_row(
        n,
        "extended.add",
        count_field_ops(|| p.add_2008_hwcd_3(&q)).1,
    );
    ops_row(
        n,
        "extended.madd",
        count_field_ops(|| p.madd_2008_hwcd_3(&qa)).1,
    );
    ops_row(n, "extended.dbl", count_field_ops(|| p.dbl_2008_hwcd()).1);
    ops_row(n, "extended.to_affine", count_field_ops(|| p.to_affine()).1);
    // The two halves of an affine addition, as a batch runs them (the inversion between them is
    // shared): twisted Edwards, then short Weierstrass (chord).
    let pa = p.to_affine();
    ops_row(
        n,
        "te_affine.start",
        count_field_ops(|| <E as MsmGroup>::affine_add_start(&pa, &qa)).1,
    );
    let inv = count_field_ops(|| match <E as MsmGroup>::affine_add_start(&pa, &qa) {
        AffineAdd::Invert(d) => d.inverse().unwrap(),
        AffineAdd::Done(_) => unreachable!("distinct points need an inversion"),
    })
    .0;
    ops_row(
        n,
        "te_affine.finish",
        count_field_ops(|| <E as MsmGroup>::affine_add_finish(&pa, &qa, inv)).1,
    );
    // Batch inversion: products per element, from two sizes (the join of the chains and the one
    // inversion cancel in the difference).
    let batch_products = |len: u64| {
        let mut v: Vec<Counted<<Bls12_377 as SwCurve>::Base>> = (1..=len)
            .map(|i| Counted(PrimeField::from_u64(i)))
            .collect();
        let c = count_field_ops(|| batch_inverse(&mut v)).1;
        c.mul + c.square
    };
    let per_element = (batch_products(128) - batch_products(64)) / 64;
    assert_eq!(batch_products(128) - batch_products(64), 64 * per_element);
    n.put("batch_inv.products_per_element", per_element);
    let sw_add = n.0["ops.affine.add.products"].as_u64().unwrap();
    n.put(
        "batch_affine.sw.products_plus_inversion",
        sw_add + per_element,
    );
    let te = n.0["ops.te_affine.start.products"].as_u64().unwrap()
        + n.0["ops.te_affine.finish.products"].as_u64().unwrap();
    n.put("batch_affine.te.products_plus_inversion", te + per_element);
    let row = |n: &Numbers, system: &str, op: &str, formula: &str, key: &str| -> Vec<Value> {
        let get = |f: &str| n.0[&format!("ops.{key}.{f}")].as_u64().unwrap();
        let (m, s, i) = (get("mul"), get("square"), get("inverse"));
        let mut cost = Vec::new();
        if i > 0 {
            cost.push(format!("{i}I"));
        }
        // The multiplication by the curve constant k = 2d is one of the products of `add`.
        let k = if key.starts_with("extended.add") || key.starts_with("extended.madd") {
            1
        } else {
            0
        };
        if m > k {
            cost.push(format!("{}M", m - k));
        }
        if s > 0 {
            cost.push(format!("{s}S"));
        }
        if k > 0 {
            cost.push("1k".into());
        }
        let products = if i > 0 {
            format!("{} + I", m + s)
        } else {
            (m + s).to_string()
        };
        vec![
            json!(system),
            json!(op),
            json!(formula),
            json!(format!("${}$", cost.join(" + "))),
            json!(products),
        ]
    };
    let rows = vec![
        row(
            n,
            "affine (SW)",
            "addition",
            "chord, $\\lambda = (y_2-y_1)/(x_2-x_1)$",
            "affine.add",
        ),
        row(
            n,
            "affine (SW)",
            "doubling",
            "tangent, $\\lambda = 3x_1^2/(2y_1)$",
            "affine.dbl",
        ),
        row(
            n,
            "Jacobian",
            "addition",
            "EFD `add-2007-bl`",
            "jacobian.add",
        ),
        row(
            n,
            "Jacobian",
            "mixed addition",
            "EFD `madd-2007-bl`",
            "jacobian.madd",
        ),
        row(
            n,
            "Jacobian",
            "doubling",
            "EFD `dbl-2009-l` ($a = 0$)",
            "jacobian.dbl",
        ),
        row(n, "Jacobian", "to affine", "", "jacobian.to_affine"),
        row(n, "XYZZ", "addition", "EFD `add-2008-s`", "xyzz.add"),
        row(
            n,
            "XYZZ",
            "mixed addition",
            "EFD `madd-2008-s`",
            "xyzz.madd",
        ),
        row(
            n,
            "XYZZ",
            "doubling",
            "EFD `dbl-2008-s-1` ($a = 0$)",
            "xyzz.dbl",
        ),
        row(
            n,
            "XYZZ",
            "doubling an affine point",
            "EFD `mdbl-2008-s-1` ($a = 0$)",
            "xyzz.mdbl",
        ),
        row(n, "XYZZ", "to affine", "", "xyzz.to_affine"),
        row(
            n,
            "extended TE",
            "addition",
            "EFD `add-2008-hwcd-3`, HWCD §3.1",
            "extended.add",
        ),
        row(
            n,
            "extended TE",
            "mixed addition",
            "EFD `madd-2008-hwcd-3`, plus $T_2 = x_2y_2$",
            "extended.madd",
        ),
        row(
            n,
            "extended TE",
            "doubling",
            "EFD `dbl-2008-hwcd`, HWCD §3.3",
            "extended.dbl",
        ),
        row(n, "extended TE", "to affine", "", "extended.to_affine"),
    ];
    n.table(
        "ops.table",
        &[
            "coordinates",
            "operation",
            "formula (source)",
            "cost",
            "products",
        ],
        rows,
    );
}

fn windows_cpu(n: &mut Numbers) {
    n.put("window.range.min", *WINDOW_RANGE.start());
    n.put("window.range.max", *WINDOW_RANGE.end());
    n.put("window.sample", WINDOW_SAMPLE);
    let curves = [
        (GpuCurve::Bn254, "BN254"),
        (GpuCurve::Bls12_377, "BLS12-377"),
        (GpuCurve::Bls12_381, "BLS12-381"),
        (GpuCurve::EdBls12_377, "Ed-on-BLS12-377"),
    ];
    // The model's cost at 2^16 on BLS12-377, in thousands, c = 10..=16.
    let r377 = scalar_modulus(GpuCurve::Bls12_377);
    let n16 = 1usize << 16;
    let best = window_size(n16, &r377);
    let cs: Vec<u32> = (10..=16).collect();
    let mut head = vec!["$c$".to_string()];
    let mut ks = vec![json!("$K(c)$")];
    let mut costs = vec![json!("$\\operatorname{cost}(c)$")];
    for &c in &cs {
        let k = num_windows(c, &r377);
        let plain = 253u32.div_ceil(c) as usize;
        let bold = |s: String| if c == best { format!("**{s}**") } else { s };
        head.push(bold(c.to_string()));
        ks.push(json!(if k > plain {
            format!("{plain} + {}", k - plain)
        } else {
            k.to_string()
        }));
        costs.push(json!(bold(
            ((cost(n16, c, &r377) + 500) / 1000).to_string()
        )));
    }
    n.put(
        "window.cost_table.bls12-377.2e16",
        json!({ "columns": head, "rows": [ks, costs] }),
    );
    n.put("window.choice.bls12-377.2e16", best);
    n.put("window.windows.bls12-377.2e16", num_windows(best, &r377));
    // What window_size returns, and what the model alone would pick without the upper end of
    // WINDOW_RANGE.
    let logs = [8u32, 10, 12, 14, 16, 18, 20];
    let mut rows = Vec::new();
    for (c, label) in curves {
        let r = scalar_modulus(c);
        let mut row = vec![json!(label)];
        for &l in &logs {
            let w = window_size(1 << l, &r);
            n.put(format!("window.choice.{}.2e{l}", curve_key(c)), w);
            row.push(json!(w));
        }
        rows.push(row);
        // The model over widths past WINDOW_RANGE: K(c) from the largest number K signed digits
        // spell (the digits chapter), which num_windows computes within the range.
        let rb = big(&c.scalar_modulus()) - 1u32;
        let k_of = |w: u32| {
            let digit = (BigUint::from(1u32) << (w - 1)) - 1u32;
            let mut m = BigUint::from(0u32);
            let mut k = 0u64;
            while m < rb {
                m += &digit << (w as u64 * k) as usize;
                k += 1;
            }
            k
        };
        for w in WINDOW_RANGE {
            assert_eq!(k_of(w), num_windows(w, &r) as u64, "K({w})");
        }
        let model = |l: u32, w: u32| k_of(w) * ((1u64 << l) + (1u64 << w));
        let unclamped = |l: u32| (2..=24).min_by_key(|&w| (model(l, w), w)).unwrap();
        let above = (16..=30)
            .find(|&l| unclamped(l) > *WINDOW_RANGE.end())
            .unwrap();
        n.put(
            format!("window.unclamped_above_max_from.{}", curve_key(c)),
            above,
        );
        n.put(
            format!("window.unclamped.{}.2e{above}", curve_key(c)),
            unclamped(above),
        );
        for l in [20u32, 21, 22] {
            n.put(
                format!("window.unclamped.{}.2e{l}", curve_key(c)),
                unclamped(l),
            );
        }
    }
    let mut columns = vec!["$n$".to_string()];
    columns.extend(logs.iter().map(|l| format!("$2^{{{l}}}$")));
    n.put(
        "window.rule_table",
        json!({ "columns": columns, "rows": rows }),
    );
    // Bucket memory at c = 16 on BLS12-377: XYZZ points of 4 coordinates of 64-bit words.
    let xyzz_bytes = 4 * limbs_covering(377, 64) * 8;
    n.put("cpu.xyzz_bytes.bls12-377", xyzz_bytes);
    n.put("cpu.buckets.c16", 1u64 << 15);
    n.put(
        "cpu.bucket_mib.bls12-377.c16",
        ((1u64 << 15) * xyzz_bytes as u64) >> 20,
    );
    // BLS12-381 at 2^18: c = 15 needs a window for the final carry.
    let r381 = scalar_modulus(GpuCurve::Bls12_381);
    let n18 = 1usize << 18;
    n.put("window.bls12-381.c15.windows", num_windows(15, &r381));
    n.put("window.bls12-381.c16.windows", num_windows(16, &r381));
    n.real(
        "window.bls12-381.2e18.cost15_e6",
        cost(n18, 15, &r381) as f64 / 1e6,
    );
    n.real(
        "window.bls12-381.2e18.cost16_e6",
        cost(n18, 16, &r381) as f64 / 1e6,
    );
    // book/pippenger.md names c = 15 and 16 in words: the jump it explains.
    assert!(
        window_size(n18, &scalar_modulus(GpuCurve::Bls12_377)) == 15
            && window_size(n18, &r381) == 16
            && cost(n18, 15, &r381) > cost(n18, 16, &r381),
        "the BLS12-381 jump at 2^18 changed: rewrite its paragraph in book/pippenger.md"
    );
    // Widths 2..=16 that need the extra window for the final carry.
    let mut rows = Vec::new();
    for (c, label) in curves {
        let r = scalar_modulus(c);
        let b = bit_len(&{
            let mut m = r;
            m[0] -= 1; // r is odd
            m
        });
        let extra: Vec<String> = WINDOW_RANGE
            .filter(|&w| num_windows(w, &r) > b.div_ceil(w) as usize)
            .map(|w| w.to_string())
            .collect();
        n.put(
            format!("digits.extra_window.{}", curve_key(c)),
            extra.join(", "),
        );
        rows.push(vec![
            json!(label),
            json!(b),
            json!(if extra.is_empty() {
                "none".into()
            } else {
                extra.join(", ")
            }),
        ]);
    }
    n.table(
        "digits.extra_window_table",
        &["curve", "$b$", "widths $c$ that need the extra window"],
        rows,
    );
    // The share of uniform scalars whose carry a K-window code would drop: (r − 1 − M_K)/r.
    for (c, w) in [(GpuCurve::Bls12_377, 11u32), (GpuCurve::Bls12_381, 15)] {
        let r = big(&c.scalar_modulus());
        let k = r.bits().div_ceil(w as u64);
        let digit = (BigUint::from(1u32) << (w - 1)) - 1u32;
        let m_k = (0..k).fold(BigUint::from(0u32), |acc, i| {
            acc + (&digit << (w as u64 * i) as usize)
        });
        let share = log2_big(&(&r - 1u32 - &m_k)) - log2_big(&r);
        n.real(
            format!("digits.dropped_share.{}.c{w}", curve_key(c)),
            2f64.powf(share),
        );
    }
    let r377b = big(&GpuCurve::Bls12_377.scalar_modulus());
    n.put(
        "digits.top16_of_256.bls12-377",
        format!("0x{:x}", &r377b >> 240usize),
    );
    // Unsigned digits: K(c)(n + 2·2^c), no carry window; the best against the signed best.
    let unsigned = |c: u32| 253u64.div_ceil(c as u64) * (n16 as u64 + 2 * (1u64 << c));
    let cu = (2..=16).min_by_key(|&c| (unsigned(c), c)).unwrap();
    n.put("window.unsigned.bls12-377.2e16.c", cu);
    n.put(
        "window.unsigned.bls12-377.2e16.windows",
        253u32.div_ceil(cu),
    );
    n.real(
        "window.unsigned.bls12-377.2e16.cost_e6",
        unsigned(cu) as f64 / 1e6,
    );
    let signed = cost(n16, best, &r377);
    n.real("window.signed.bls12-377.2e16.cost_e6", signed as f64 / 1e6);
    n.real(
        "window.signed_saving_pct.bls12-377.2e16",
        100.0 * (1.0 - signed as f64 / unsigned(cu) as f64),
    );
    // The windows of the usual CPU widths (c = 13..=16) on the four curves.
    let ks: Vec<usize> = curves
        .iter()
        .flat_map(|&(c, _)| (13..=16).map(move |w| num_windows(w, &scalar_modulus(c))))
        .collect();
    n.put("window.cpu_windows.min", *ks.iter().min().unwrap());
    n.put("window.cpu_windows.max", *ks.iter().max().unwrap());
}

fn batch_affine(n: &mut Numbers) {
    let cfg = BatchAffineConfig::default();
    n.put("batch_affine.batch_size", cfg.batch_size);
    n.put("batch_affine.max_deferred", cfg.max_deferred);
    n.put("batch_affine.min_batch", cfg.min_batch);
    let all = AllAffineConfig::default();
    n.put("all_affine.accumulation_batch", all.accumulation_batch);
    let i = |f: Field| n_inv(f);
    fn n_inv(f: Field) -> u64 {
        let e = big(&f.params().modulus) - 2u32;
        (e.bits() - 1) + (e.count_ones() - 1)
    }
    let madd = 10.0; // checked against the counted formula below
    let add = 14.0;
    assert_eq!(n.0["ops.xyzz.madd.products"], json!(madd as u64));
    assert_eq!(n.0["ops.xyzz.add.products"], json!(add as u64));
    let b = cfg.batch_size as f64;
    let i377 = i(Field::Bls12_377Fq) as f64;
    n.put(
        "batch_affine.example.forward_and_back",
        3 * cfg.batch_size as u64 + i377 as u64,
    );
    n.put(
        "batch_affine.example.separately",
        cfg.batch_size as u64 * i377 as u64,
    );
    n.real("batch_affine.example.per_inverse", (3.0 * b + i377) / b);
    let per_add = 6.0 + i377 / b;
    n.real("batch_affine.products_per_add.bls12-377", per_add);
    n.real(
        "batch_affine.saving_pct.bls12-377",
        100.0 * (1.0 - per_add / madd),
    );
    // An MSM of 2^16 points at the window rule's c, counting products only.
    let r377 = scalar_modulus(GpuCurve::Bls12_377);
    let c = window_size(1 << 16, &r377);
    let k = num_windows(c, &r377) as f64;
    let nn = (1u64 << 16) as f64;
    let acc = k * nn * madd / 1e6;
    let red = k * (1u64 << c) as f64 * add / 1e6;
    let acc_ba = k * nn * per_add / 1e6;
    n.real("batch_affine.msm.accumulation_e6", acc);
    n.real("batch_affine.msm.reduction_e6", red);
    n.real("batch_affine.msm.total_e6", acc + red);
    n.real("batch_affine.msm.accumulation_ba_e6", acc_ba);
    n.real("batch_affine.msm.total_ba_e6", acc_ba + red);
    n.real(
        "batch_affine.msm.saving_pct",
        100.0 * (1.0 - (acc_ba + red) / (acc + red)),
    );
    // When a batch pays: B > I/4, batches capped at half the buckets, 2^(c−2).
    for (f, curve) in [
        (Field::Bn254Fq, GpuCurve::Bn254),
        (Field::Bls12_377Fq, GpuCurve::Bls12_377),
        (Field::Bls12_381Fq, GpuCurve::Bls12_381),
    ] {
        let inv = i(f);
        let least = inv / 4 + 1;
        let c_min = (2..=16).find(|&c| (1u64 << (c - 2)) >= least).unwrap();
        let key = curve_key(curve);
        n.put(format!("batch_affine.breakeven.{key}"), least);
        n.put(format!("batch_affine.c_min.{key}"), c_min);
        n.put(
            format!("batch_affine.cap_at_c_min.{key}"),
            1u64 << (c_min - 2),
        );
        n.real(
            format!("batch_affine.products_at_c_min.{key}"),
            6.0 + inv as f64 / (1u64 << (c_min - 2)) as f64,
        );
        let r = scalar_modulus(curve);
        let from = (4..=24)
            .find(|&l| window_size(1 << l, &r) >= c_min)
            .unwrap();
        n.put(format!("batch_affine.from_log_n.{key}"), from);
    }
    let cap_c = (2..=16)
        .find(|&c| (1u64 << (c - 2)) >= cfg.batch_size as u64)
        .unwrap();
    n.put("batch_affine.cap_from_c", cap_c);

    // The all-affine MSM's model (the WebAssembly chapter).
    let b_all = all.accumulation_batch as f64;
    n.real("all_affine.products_per_add.bls12-377", 6.0 + i377 / b_all);
    n.put("all_affine.model.c", c);
    n.put("all_affine.model.windows", k as u64);
    let ratio = (1u64 << c) as f64 / nn;
    n.real("all_affine.model.bucket_ratio", ratio);
    n.real("all_affine.model.affine_per_point", 6.0 * k * (1.0 + ratio));
    n.real(
        "all_affine.model.projective_per_point",
        madd * k + add * k * ratio,
    );
    n.put(
        "all_affine.model.additions",
        k as u64 * ((1u64 << 16) + (1u64 << c)),
    );
    let m = 1usize << (c - 1);
    let s = fastmsm_msm::all_affine::segments(m, k as usize, 377);
    let correction = fastmsm_msm::all_affine::SEGMENT_CORRECTION_PRODUCTS;
    let s_real = (2.0 * m as f64 * 1.5 * 377.0 / (correction * k)).sqrt();
    n.real("all_affine.segments.correction_products", correction);
    n.put("all_affine.segments.m", m);
    n.real("all_affine.segments.optimum", s_real);
    n.put("all_affine.segments.s", s);
    n.put("all_affine.segments.length", m.div_ceil(s));
    n.put("all_affine.segments.batch", s * k as usize);
    n.put("all_affine.segments.inversions", 2 * m.div_ceil(s));
    n.real("all_affine.segments.inversion_model", 1.5 * 377.0);
    // A segment's projective finish: two mixed additions and one general.
    n.put(
        "all_affine.segment_products",
        2 * n.0["ops.xyzz.madd.products"].as_u64().unwrap()
            + n.0["ops.xyzz.add.products"].as_u64().unwrap(),
    );
    // GLV halves against the windows: c = 13 and 14 with the halves' bound.
    let glv = glv_of::<Bls12_377>().unwrap();
    let half = glv.decomposer().half_bits();
    let mut bound: Scalar = [0; 4];
    bound[(half / 64) as usize] = 1 << (half % 64);
    for w in [13u32, 14] {
        let kw = num_windows(w, &bound);
        n.put(format!("glv.bls12-377.c{w}.windows"), kw);
        n.put(
            format!("glv.bls12-377.c{w}.plain_windows"),
            half.div_ceil(w),
        );
        n.put(format!("glv.bls12-377.c{w}.bits_covered"), w as usize * kw);
    }
}

fn glv(n: &mut Numbers) {
    n.put(
        "glv.shift_bits",
        source_const("crates/msm/src/glv/wide.rs", "SHIFT_BITS"),
    );
    n.put(
        "glv.multiplier_words",
        source_const("crates/msm/src/glv/wide.rs", "MULTIPLIER_WORDS"),
    );
    let mut lambda_bits = Vec::new();
    let mut half_bits = Vec::new();
    let mut scalar_bits = Vec::new();
    fn of<C: SwCurve>(
        n: &mut Numbers,
        key: &str,
        lambda_bits: &mut Vec<u64>,
        half_bits: &mut Vec<u32>,
        scalar_bits: &mut Vec<u64>,
    ) {
        let g = glv_of::<C>().unwrap();
        let lambda = big(&g.lambda());
        let r = big(&C::SCALAR_MODULUS);
        lambda_bits.push(lambda.bits());
        half_bits.push(g.decomposer().half_bits());
        scalar_bits.push(r.bits());
        n.put(format!("glv.half_bits.{key}"), g.decomposer().half_bits());
        let [b1, b2] = g.decomposer().bounds();
        n.real(
            format!("glv.bound_log2.{key}"),
            log2_big(&big(&b1)).max(log2_big(&big(&b2))),
        );
        // x² − 1: BLS12-381's λ, and r − λ − 1 for BLS12-377 (whose λ is −x²).
        let x2m1 = if key == "bls12-381" {
            lambda
        } else {
            &r - &lambda - 1u32
        };
        n.put(format!("glv.x2_minus_1_bits.{key}"), x2m1.bits());
    }
    of::<Bn254>(
        n,
        "bn254",
        &mut lambda_bits,
        &mut half_bits,
        &mut scalar_bits,
    );
    of::<Bls12_377>(
        n,
        "bls12-377",
        &mut lambda_bits,
        &mut half_bits,
        &mut scalar_bits,
    );
    of::<Bls12_381>(
        n,
        "bls12-381",
        &mut lambda_bits,
        &mut half_bits,
        &mut scalar_bits,
    );
    n.put("glv.lambda_bits.min", *lambda_bits.iter().min().unwrap());
    n.put("glv.lambda_bits.max", *lambda_bits.iter().max().unwrap());
    n.put("glv.half_bits.min", *half_bits.iter().min().unwrap());
    n.put("glv.half_bits.max", *half_bits.iter().max().unwrap());
    n.put("glv.scalar_bits.min", *scalar_bits.iter().min().unwrap());
    n.put("glv.scalar_bits.max", *scalar_bits.iter().max().unwrap());
}

fn gpu_constants(n: &mut Numbers) {
    n.put("gpu.stages", Stage::ALL.len());
    n.put("gpu.fan_in", FAN_IN);
    n.put("gpu.min_chunk", MIN_CHUNK);
    n.put("gpu.workgroup_size", WORKGROUP_SIZE);
    n.put("gpu.prefix_threads", PREFIX_THREADS);
    n.put("gpu.prefix_rounds", PREFIX_THREADS.trailing_zeros());
    n.put(
        "gpu.prefix_storage_bytes",
        Stage::Prefix.workgroup_storage_bytes(),
    );
    n.put("gpu.add_steps", ADD_STEPS);
    n.put("gpu.addition_products", ADDITION_PRODUCTS);
    n.put("gpu.window.max", MAX_WINDOW_BITS);
    n.put("gpu.window.rule_max", RULE_MAX_WINDOW_BITS);
    n.put("gpu.window.rule_min", default_window_bits(1));
    n.put("gpu.window.rule_offset", 21 - default_window_bits(1 << 20));
    n.put("gpu.limb_widths.min", LIMB_WIDTHS[0]);
    n.put("gpu.limb_widths.portable_max", *LIMB_WIDTHS.last().unwrap());
    n.put("gpu.limb_widths.int64_min", INT64_LIMB_WIDTHS[0]);
    n.put("gpu.limb_widths.max", *INT64_LIMB_WIDTHS.last().unwrap());
    n.put(
        "gpu.calibrate.min_chunk",
        source_const("crates/msm-gpu/src/calibrate.rs", "MIN_PROBE_CHUNK"),
    );
    // The probe's MSM on a GPU (the larger of probe_points' two sizes).
    let calibrate =
        std::fs::read_to_string(format!("{ROOT}crates/msm-gpu/src/calibrate.rs")).unwrap();
    let body = &calibrate[calibrate.find("fn probe_points").unwrap()..];
    let body = &body[..body.find("\n}\n").unwrap()];
    let shifts: Vec<u32> = body
        .match_indices("1 << ")
        .map(|(i, _)| {
            body[i + 5..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    n.put(
        "gpu.calibrate.probe_points_log2",
        *shifts.iter().max().unwrap(),
    );
    n.put(
        "gpu.loop_probe_log2",
        source_const("crates/msm-gpu/src/context.rs", "LOOP_PROBE_ITERATIONS").trailing_zeros(),
    );
    n.put(
        "gpu.submit.default_seconds",
        json!(DEFAULT_MAX_SUBMISSION_SECONDS),
    );
    let defaults = wgpu::Limits::defaults();
    n.put(
        "webgpu.offset_alignment",
        defaults.min_storage_buffer_offset_alignment,
    );
    n.put(
        "webgpu.max_binding_bytes",
        defaults.max_storage_buffer_binding_size,
    );
    n.put("webgpu.max_buffer_bytes", defaults.max_buffer_size);
    n.put(
        "webgpu.max_workgroups_per_dimension",
        defaults.max_compute_workgroups_per_dimension,
    );
    // Bindings: the module's, and the most any one stage binds.
    let mut used: Vec<u32> = Stage::ALL
        .iter()
        .flat_map(|s| s.bindings().iter().map(|b| b.index()))
        .collect();
    used.sort_unstable();
    used.dedup();
    n.put("gpu.bindings.count", used.len());
    let most = Stage::ALL.iter().map(|s| s.bindings().len()).max().unwrap();
    n.put("gpu.bindings.max_per_stage", most);
    let widest: Vec<String> = Stage::ALL
        .iter()
        .filter(|s| s.bindings().len() == most)
        .map(|s| format!("`{}`", s.entry_point()))
        .collect();
    n.put("gpu.bindings.widest_stages", widest.join(" and "));
    for b in [
        Binding::WindowSums,
        Binding::HeadsIn,
        Binding::HeadsOut,
        Binding::Errors,
    ] {
        n.put(format!("gpu.binding.{}", b.info().name), b.index());
    }
    // The Params record.
    n.put("gpu.params.words", Params::MEMBERS.len());
    n.put("gpu.params.bytes", Params::BYTES);
    n.put(
        "gpu.params.record_words",
        Params::BYTES.next_multiple_of(defaults.min_storage_buffer_offset_alignment as u64) / 4,
    );
    let meaning = |name: &str| -> &str {
        match name {
            "n" => "the points of this batch in one window (every copy counted)",
            "base" => "index of the batch's first point in the whole input (for error reports)",
            "windows" => "$W$ (all packed MSMs' windows, side by side)",
            "window_bits" => "$c$",
            "buckets" => "$B$",
            "segments" => "$S$",
            "threads" => {
                "$T = \\lceil n_b W/K \\rceil$, the chunks of the batch if every window were full"
            }
            "fan_in" => "$F$",
            "level" => "`smvp_combine`'s level $\\ell$",
            "chunks" => "`smvp_combine`'s invocations in this pass",
            "stride" => "`fold`: partial $t$ absorbs partial $t + \\text{stride}$",
            "msm_windows" => "the windows of one packed MSM (`run_batch`); $W$ when one MSM runs",
            "add_steps" => {
                "the stepped general addition's step count, read at run time so that the driver cannot unroll its loop"
            }
            "copies" => "copies of every point (precomputed bases), else 1",
            "offset" => {
                "the first invocation of a sliced dispatch ([short submissions](#short-submissions)); every stage but `prefix` adds it to its index"
            }
            other => panic!("Params member {other}: say what it means here"),
        }
    };
    let rows = Params::MEMBERS
        .iter()
        .map(|&(name, offset, _)| {
            vec![
                json!(offset / 4),
                json!(format!("`{name}`")),
                json!(meaning(name)),
            ]
        })
        .collect();
    n.table("gpu.params.table", &["word", "field", "meaning"], rows);
    // Which forms of the point additions the shaders get, by limb count.
    let mut stepped = Vec::new();
    let mut mixed = Vec::new();
    for f in Field::ALL {
        for w in LIMB_WIDTHS.iter().chain(INT64_LIMB_WIDTHS.iter()) {
            let k = limb_constants(f.params(), *w).unwrap();
            if GeneralAdd::for_limbs(&k) == GeneralAdd::Stepped {
                stepped.push(k.limbs);
            }
            mixed.push(MixedAdd::for_limbs(&k).wgsl_suffix());
        }
    }
    n.put(
        "gpu.general_add_stepped.min_limbs",
        *stepped.iter().min().unwrap(),
    );
    n.put(
        "gpu.general_add_stepped.max_limbs",
        *stepped.iter().max().unwrap(),
    );
    mixed.dedup();
    assert_eq!(
        mixed.len(),
        1,
        "one form of the SMVP's mixed addition at every width"
    );
    n.put("gpu.mixed_add_form", mixed[0]);
    for c in GpuCurve::ALL {
        n.put(format!("gpu.coord_words.{}", c.name()), c.coord_words());
        n.put(
            format!("gpu.radix64_limb_bits.{}", c.name()),
            radix64_limb_bits(c.base_field()),
        );
    }
    // Limb tables of the WGSL chapter.
    for f in [Field::Bn254Fq, Field::Bls12_377Fq] {
        for w in LIMB_WIDTHS.iter().chain(INT64_LIMB_WIDTHS.iter()) {
            let k = limb_constants(f.params(), *w).unwrap();
            let ops = count_ops(&k);
            n.put(
                format!("wgsl.ops.{}.w{w}.multiplies", f.name()),
                ops.multiplies,
            );
            n.put(format!("wgsl.ops.{}.w{w}.others", f.name()), ops.others);
        }
    }
    let row = |w: u32, form: &str, inner: &str| {
        let bn = limbs_with_spare_bit(254, w);
        let bls = limbs_with_spare_bit(377, w);
        vec![
            json!(format!("{w} bits, {form}")),
            json!(bn),
            json!(bls),
            json!(bls * bls),
            json!(2),
            json!(inner),
        ]
    };
    n.table(
        "wgsl.native_limb_table",
        &[
            "Limbs",
            "BN254 (254 bits)",
            "BLS12-377 (377 bits)",
            "limb pairs, BLS12-377",
            "multiply-adds per pair",
            "other integer operations per pair",
        ],
        vec![
            row(32, "no-carry CIOS", "two 64-bit additions, two splits"),
            row(30, "reduced radix", "one carry per row"),
            row(29, "reduced radix", "none inside a row"),
        ],
    );
    // The chained-product benchmark's defaults (its command line, crates/msm-gpu/src/bin).
    let bench = std::fs::read_to_string(format!("{ROOT}crates/msm-gpu/src/bin/wgsl-mont-bench.rs"))
        .unwrap();
    let default_of = |field: &str| -> String {
        let from = bench
            .find("Args {\n        threads")
            .expect("parse_args' defaults");
        let at = from + bench[from..].find(&format!("{field}: ")).unwrap();
        bench[at + field.len() + 2..]
            .split(',')
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    assert_eq!(default_of("threads"), "1 << 20");
    n.put("wgsl.bench.threads_log2", 20);
    n.put(
        "wgsl.bench.iterations",
        default_of("iterations").parse::<u64>().unwrap(),
    );
    n.put(
        "wgsl.bench.reps",
        default_of("reps").parse::<u64>().unwrap(),
    );
    let k = limb_constants(Field::Bls12_377Fq.params(), 13).unwrap();
    n.put("gpu.point_words.bls12-377.w13", 2 * k.limbs);
    n.put("gpu.coord_bytes.bls12-377.w13", 4 * k.limbs);
    n.put(
        "gpu.packed_coord_bytes.bls12-377",
        4 * GpuCurve::Bls12_377.coord_words(),
    );
}

/// The plan `GpuMsm` makes for this curve, limb width, profile and binding limit (natively).
fn plan_of(
    curve: GpuCurve,
    limb_bits: u32,
    n: usize,
    profile: &DeviceProfile,
    limit: u64,
    options: &RunOptions,
) -> (Plan, fastmsm_mont::LimbConstants) {
    let k = limb_constants(curve.base_field().params(), limb_bits).unwrap();
    let options = RunOptions {
        max_submission_seconds: Some(
            options
                .max_submission_seconds
                .unwrap_or(DEFAULT_MAX_SUBMISSION_SECONDS),
        ),
        ..*options
    };
    let plan = Plan::new(curve, &k, n, &options, limit, profile).unwrap();
    (plan, k)
}

/// The SMVP passes of a full batch: invocations per level, `smvp` first.
fn levels(plan: &Plan) -> Vec<u32> {
    plan.smvp_passes(plan.batch)
        .iter()
        .map(|p| p.invocations)
        .collect()
}

fn gpu_plans(n: &mut Numbers) {
    // Native adapters bind up to 4 GiB − 1 in wgpu's Vulkan backend; the plans below never reach it.
    let native = u32::MAX as u64;
    let h200 = DeviceProfile::named("h200").unwrap();
    let options = RunOptions::default();
    let (lo, hi) = h200.chunk_range;
    n.put("gpu.chunk_range.min", lo);
    n.put("gpu.chunk_range.max", hi);
    n.put(
        "gpu.two_batches_from_log2",
        h200.two_batches_from.unwrap().trailing_zeros(),
    );
    n.put(
        "gpu.mobile.wave",
        DeviceProfile::named("mobile").unwrap().smvp_wave(26),
    );
    n.put(
        "gpu.portable.limb_bits",
        DeviceProfile::portable().portable_limb_bits,
    );
    n.put(
        "gpu.portable.reduction_threads_log2",
        DeviceProfile::portable().reduction_threads.trailing_zeros(),
    );
    n.put(
        "gpu.h200.reduction_threads_int64_k",
        h200.reduction_threads_int64 >> 10,
    );
    n.put("gpu.min_segment_buckets", h200.min_segment_buckets);
    for limbs in [13usize, 17, 26, 30] {
        n.put(format!("gpu.h200.wave.l{limbs}"), h200.smvp_wave(limbs));
        let model = SubmitModel::new(&h200, limbs, DEFAULT_MAX_SUBMISSION_SECONDS);
        n.put(
            format!("gpu.submit.h200.max_chunk.l{limbs}"),
            (model.max_steps() - 1.0).floor() as u64,
        );
    }
    // The tuned plans on the H200 (native limits).
    for (curve, w) in [
        (GpuCurve::Bls12_377, 30u32),
        (GpuCurve::Bls12_377, 13),
        (GpuCurve::Bn254, 29),
    ] {
        for l in [20u32, 22] {
            let (plan, k) = plan_of(curve, w, 1 << l, &h200, native, &options);
            let key = format!("gpu.h200.{}.w{w}.2e{l}", curve.name());
            n.put(format!("{key}.limbs"), k.limbs);
            n.put(format!("{key}.c"), plan.window_bits);
            n.put(format!("{key}.rule_c"), default_window_bits(1 << l));
            n.put(format!("{key}.windows"), plan.windows);
            n.put(format!("{key}.chunk"), plan.chunk);
            n.put(format!("{key}.segments"), plan.segments);
            n.put(format!("{key}.batches"), plan.batches());
            n.put(format!("{key}.first_batch"), plan.first_batch);
            n.put(format!("{key}.batch"), plan.batch);
            n.put(format!("{key}.wave"), h200.smvp_wave(k.limbs));
            let lv = levels(&plan);
            n.put(format!("{key}.levels"), lv.clone());
            n.put(format!("{key}.combine_levels"), lv.len() - 1);
            for (i, h) in lv.iter().enumerate() {
                n.put(format!("{key}.level{i}"), *h);
            }
            // The longest chain of combine additions: F per level.
            n.put(
                format!("{key}.combine_chain"),
                FAN_IN as usize * (lv.len() - 1),
            );
            n.real(
                format!("{key}.head_share"),
                FAN_IN as f64 / ((FAN_IN - 1) as f64 * plan.chunk as f64),
            );
            let point_bytes = 16 * k.limbs as u64;
            n.put(
                format!("{key}.bucket_mib"),
                (plan.windows as u64 * ((1u64 << (plan.window_bits - 1)) + 1) * point_bytes) >> 20,
            );
        }
    }
    // The reduction's segments, the portable rule at W = 17.
    let w17 = 17u32;
    let budget = DeviceProfile::portable().reduction_threads;
    n.put("gpu.segments.example.windows", w17);
    n.put("gpu.segments.example.per_window", budget / w17);
    let s = fastmsm_gpu::msm::reduction_segments(&DeviceProfile::portable(), w17, 1 << 14, false);
    n.put("gpu.segments.example.s", s);
    n.put("gpu.segments.example.fold_passes", s.trailing_zeros());
    // The test with chunks of 2: 300 points in the windows of c = 4 (BLS12-377).
    let lavapipe = DeviceProfile::named("lavapipe").unwrap();
    let tiny = RunOptions {
        window_bits: Some(4),
        chunk: Some(2),
        max_submission_seconds: Some(f64::INFINITY),
        ..RunOptions::default()
    };
    let (plan, _) = plan_of(GpuCurve::Bls12_377, 15, 300, &lavapipe, native, &tiny);
    n.put("gpu.test_chunk2.windows", plan.windows);
    n.put(
        "gpu.test_chunk2.combine_levels",
        plan.smvp_passes(300).len() - 1,
    );
    // The SMVP example: one window, K = 4, T = 9 (a plan of 36 entries).
    let (example, _) = plan_of(GpuCurve::Bls12_377, 15, 300, &lavapipe, native, &tiny);
    let example = Plan {
        n: 36,
        windows: 1,
        batch: 36,
        first_batch: 36,
        chunk: 4,
        ..example
    };
    let passes = example.smvp_passes(36);
    n.put("gpu.smvp_example.threads", example.smvp_threads(36));
    for (i, p) in passes.iter().enumerate() {
        n.put(format!("gpu.smvp_example.level{i}"), p.invocations);
    }
    n.put("gpu.smvp_example.passes", passes.len());
}

/// The worked example of the device chapter: BLS12-377 at 13-bit limbs, the `h100` profile (the
/// one a browser picks for that GPU), on a device opened with WebGPU's default limits.
fn worked_example(n: &mut Numbers) {
    let curve = GpuCurve::Bls12_377;
    let profile = DeviceProfile::named("h100").unwrap();
    let defaults = wgpu::Limits::defaults();
    let limit = defaults
        .max_storage_buffer_binding_size
        .min(defaults.max_buffer_size);
    let align = defaults.min_storage_buffer_offset_alignment as u64;
    let k = limb_constants(curve.base_field().params(), 13).unwrap();
    let l = k.limbs as u64;
    let c_words = curve.coord_words() as u64;
    let point_bytes = 16 * l;
    let e = "gpu.ex";
    n.put(format!("{e}.limbs"), l);
    n.put(format!("{e}.coord_words"), c_words);
    n.put(format!("{e}.point_bytes"), point_bytes);
    n.put(format!("{e}.limit"), limit);
    n.put(format!("{e}.offset_alignment"), align);
    n.put(format!("{e}.wave"), profile.smvp_wave(k.limbs));
    let r_bits = bit_len(&scalar_modulus(curve));
    n.put(format!("{e}.r_bits_plus_one"), r_bits + 1);
    let bucket_bytes = |c: u32| {
        let w = (r_bits + 1).div_ceil(c) as u64;
        w * ((1u64 << (c - 1)) + 1) * point_bytes
    };
    for c in 15..=17u32 {
        n.put(format!("{e}.c{c}.windows"), (r_bits + 1).div_ceil(c));
        n.put(format!("{e}.c{c}.buckets"), 1u64 << (c - 1));
        n.put(format!("{e}.c{c}.bucket_bytes"), bucket_bytes(c));
        n.put(format!("{e}.c{c}.fits"), bucket_bytes(c) <= limit);
    }
    n.put(format!("{e}.c15.slack"), limit - bucket_bytes(15));
    n.put(format!("{e}.coord_limit_points"), limit / (4 * l));
    for log in [20u32, 22] {
        let size = 1usize << log;
        let (plan, _) = plan_of(curve, 13, size, &profile, limit, &RunOptions::default());
        let key = format!("{e}.2e{log}");
        let w = plan.windows as u64;
        n.put(format!("{key}.n"), size);
        n.put(format!("{key}.rule_c"), default_window_bits(size));
        n.put(format!("{key}.c"), plan.window_bits);
        n.put(format!("{key}.windows"), w);
        n.put(format!("{key}.buckets"), plan.buckets);
        n.put(format!("{key}.segments"), plan.segments);
        n.put(format!("{key}.fold_passes"), plan.segments.trailing_zeros());
        n.put(format!("{key}.batch"), plan.batch);
        n.put(format!("{key}.first_batch"), plan.first_batch);
        let ranges = plan.batch_ranges();
        n.put(format!("{key}.batches"), ranges.len());
        let sizes: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
        n.put(format!("{key}.last_batch"), *sizes.last().unwrap());
        n.put(
            format!("{key}.full_batches"),
            sizes.iter().filter(|&&s| s == plan.batch).count(),
        );
        // The batch the default split wanted, and its one-wave chunk, before the limit cut it.
        let two = profile.two_batches_from.unwrap();
        let first = if size >= 4 * two {
            size / 8 / 64 * 64
        } else {
            size / 4 / 64 * 64
        };
        assert_eq!(first, plan.first_batch, "the default split's first batch");
        let wanted = if size >= 4 * two {
            (size - first).div_ceil(3).next_multiple_of(64)
        } else {
            (size - first).next_multiple_of(64)
        };
        let wave = profile.smvp_wave(k.limbs) as u64;
        let k_wanted = (wanted as u64 * w).div_ceil(wave);
        n.put(format!("{key}.wanted_batch"), wanted);
        n.put(format!("{key}.wanted_chunk"), k_wanted);
        n.put(format!("{key}.chunk"), plan.chunk);
        assert_eq!(
            plan.chunk as u64,
            (plan.batch as u64 * w).div_ceil(wave),
            "one wave of the batch actually run"
        );
        // Per-point footprints of the batch buffers, bytes.
        let heads = (w * point_bytes).div_ceil(k_wanted);
        n.put(format!("{key}.per_point.points"), 8 * l);
        n.put(format!("{key}.per_point.points_in"), 8 * c_words);
        n.put(format!("{key}.per_point.digits"), 4 * w);
        n.put(format!("{key}.per_point.heads"), heads);
        n.put(format!("{key}.per_point.heads_numerator"), w * point_bytes);
        n.put(format!("{key}.fit"), limit / (8 * l));
        assert_eq!(plan.batch as u64, limit / (8 * l) / 64 * 64);
        n.put(
            format!("{key}.unbatched_points_mib"),
            ((size as u64) * 8 * l) >> 20,
        );
        // The SMVP passes of a full batch.
        let lv = levels(&plan);
        n.put(format!("{key}.threads"), plan.smvp_threads(plan.batch));
        n.put(format!("{key}.combine_levels"), lv.len() - 1);
        n.put(format!("{key}.levels"), lv.clone());
        n.put(format!("{key}.smvp_passes"), lv.len());
        n.put(format!("{key}.window_sums_bytes"), 16 * l * w);
        n.put(
            format!("{key}.horner_doublings"),
            plan.window_bits as u64 * w,
        );
        for (i, h) in lv.iter().enumerate() {
            n.put(format!("{key}.level{i}"), *h);
        }
        let all_same = ranges
            .iter()
            .all(|r| plan.smvp_passes(r.len()).len() == lv.len());
        n.put(format!("{key}.same_levels_every_batch"), all_same);
        // Buffers and records, as GpuMsm allocates them.
        let lay = layout(curve, &k, &plan, align);
        n.put(format!("{key}.records"), lay.records);
        n.put(format!("{key}.record_bytes"), lay.record_bytes);
        let mut total = 0u64;
        for (name, bytes) in &lay.buffers {
            n.put(format!("{key}.buffer.{name}"), *bytes);
            total += bytes;
        }
        n.put(format!("{key}.total_bytes"), total);
        n.real(
            format!("{key}.total_mib"),
            total as f64 / (1u64 << 20) as f64,
        );
        n.put(
            format!("{key}.staging_bytes"),
            plan.batch as u64 * 4 * (2 * c_words + 8),
        );
        n.put(
            format!("{key}.record_bytes_per_batch"),
            (1 + lv.len() as u64) * lay.record_bytes,
        );
        // Workgroups of the largest dispatches.
        let wg = WORKGROUP_SIZE as u64;
        n.put(
            format!("{key}.wg.per_point"),
            (plan.batch as u64).div_ceil(wg),
        );
        n.put(
            format!("{key}.wg.init_buckets"),
            (w * (plan.buckets as u64 + 1)).div_ceil(wg),
        );
        n.put(format!("{key}.wg.smvp"), (lv[0] as u64).div_ceil(wg));
        n.put(format!("{key}.wg.combine1"), (lv[1] as u64).div_ceil(wg));
        n.put(
            format!("{key}.wg.reduce"),
            (w * plan.segments as u64).div_ceil(wg),
        );
    }
    // The buffer table, both sizes side by side (bytes, MiB).
    let (a, b) = ("gpu.ex.2e20", "gpu.ex.2e22");
    let get = |n: &Numbers, key: &str| n.0[key].as_u64().unwrap();
    let formula = |name: &str| -> &str {
        match name {
            "params" => "$256 \\cdot$ records",
            "points_in" => "$4 \\cdot 2C \\cdot n_b$",
            "points" => "$4 \\cdot 2L \\cdot n_b$",
            "scalars" => "$4 \\cdot 8\\, n_b$",
            "digits" | "entries" => "$4 W n_b$",
            "counts" => "$4 W (B + 1)$",
            "offsets" => "$4 W (B + 2)$",
            "buckets" => "$4 \\cdot 4L \\cdot W (B + 1)$",
            "partials" => "$4 \\cdot 4L \\cdot W S$",
            "window_sums" => "$256 + 4 \\cdot 4L \\cdot W$ (the errors first)",
            "heads_in" | "heads_out" => "$4 \\cdot 4L \\cdot (T + W)$",
            "bucket_sums" | "lane_values" => "4 (unused here: the batch-affine experiment's)",
            other => panic!("buffer {other}: give its formula"),
        }
    };
    let mib = |x: u64| format!("{:.2}", x as f64 / (1u64 << 20) as f64);
    let lay_names: Vec<String> =
        n.0.keys()
            .filter_map(|k| k.strip_prefix(&format!("{a}.buffer.")).map(String::from))
            .collect();
    let mut rows = Vec::new();
    for idx in Binding::ALL {
        let name = idx.info().name;
        if !lay_names.iter().any(|x| x == name) {
            continue;
        }
        let (x, y) = (
            get(n, &format!("{a}.buffer.{name}")),
            get(n, &format!("{b}.buffer.{name}")),
        );
        let both = |f: &dyn Fn(u64) -> String| {
            if x == y {
                f(x)
            } else {
                format!("{} / {}", f(x), f(y))
            }
        };
        rows.push(vec![
            json!(idx.index()),
            json!(format!("`{name}`")),
            json!(formula(name)),
            json!(both(&group_digits)),
            json!(both(&mib)),
        ]);
    }
    let (tx, ty) = (
        get(n, &format!("{a}.total_bytes")),
        get(n, &format!("{b}.total_bytes")),
    );
    rows.push(vec![
        json!(""),
        json!("**total**"),
        json!("$\\sum$ of the rows above"),
        json!(format!("{} / {}", group_digits(tx), group_digits(ty))),
        json!(format!("{} / {}", mib(tx), mib(ty))),
    ]);
    n.table(
        "gpu.ex.buffer_table",
        &[
            "binding",
            "buffer",
            "bytes (formula)",
            "bytes, $2^{20}$ / $2^{22}$",
            "MiB",
        ],
        rows,
    );
    // A batch of 2^22 points in one dispatch would need a grid.
    let g = (1u64 << 22) / WORKGROUP_SIZE as u64;
    let max = defaults.max_compute_workgroups_per_dimension as u64;
    let y = g.div_ceil(max);
    n.put("gpu.ex.grid.workgroups", g);
    n.put("gpu.ex.grid.x", g.div_ceil(y));
    n.put("gpu.ex.grid.y", y);
}

fn group_digits(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(ch);
    }
    out
}

/// The products of the GPU's additions at 2^20 on BLS12-377 for windows of 14 to 16 bits: W·(10n +
/// 14·2^c) with W = ⌈(b + 1)/c⌉ (the results chapter's floor).
fn window_products(n: &mut Numbers) {
    let madd = n.0["ops.xyzz.madd.products"].as_u64().unwrap();
    let add = n.0["ops.xyzz.add.products"].as_u64().unwrap();
    let b = n.0["scalar.bits.bls12-377"].as_u64().unwrap();
    let size = 1u64 << 20;
    let products = |c: u64| (b + 1).div_ceil(c) * (madd * size + add * (1 << c));
    for c in [14u64, 15, 16] {
        n.put(format!("results.window.c{c}.windows"), (b + 1).div_ceil(c));
        n.real(
            format!("results.window.c{c}.products_e8"),
            products(c) as f64 / 1e8,
        );
    }
    for c in [15u64, 16] {
        n.real(
            format!("results.window.c{c}.saving_pct"),
            100.0 * (1.0 - products(c) as f64 / products(14) as f64),
        );
    }
    let best = (10..=20u64).min_by_key(|&c| products(c)).unwrap();
    n.put("results.window.best_c", best);
}

fn intro(n: &mut Numbers) {
    let lambda = n.0["scalar.bits.bls12-377"].as_u64().unwrap() as f64;
    n.real("intro.naive_ops.2e20", 1.5 * lambda * (1u64 << 20) as f64);
    n.put("intro.log_n_minus_3.2e20", 17);
    n.real("intro.pippenger_gain.2e20", 1.5 * 17.0 / 1.1);
    let k = limb_constants(Field::Bls12_377Fq.params(), 13).unwrap();
    n.put(
        "intro.points_mib.bls12-377.w13",
        ((1u64 << 20) * 2 * k.limbs as u64 * 4) >> 20,
    );
}

fn security(n: &mut Numbers) {
    // The oblivious bucket method at c = 4 against the rule's window at 2^16 (BLS12-377).
    let r = scalar_modulus(GpuCurve::Bls12_377);
    let c = window_size(1 << 16, &r);
    let k = num_windows(c, &r);
    let k4 = num_windows(4, &r);
    n.put("security.c4.buckets", 1u32 << 3);
    n.put("security.c4.windows", k4);
    n.real("security.c4.ratio", k4 as f64 / k as f64);
    n.real(
        "security.additions_per_point",
        k as f64 * (1.0 + (1u64 << c) as f64 / (1u64 << 16) as f64),
    );
    n.put("security.bucket_factor_den", 1u64 << 16 >> c);
    // The branchy subtraction of the 51-bit field: one product in 2^e misses the top-limb test.
}

fn all_numbers() -> Numbers {
    let mut n = Numbers::default();
    fields(&mut n);
    carry_budgets(&mut n);
    curves(&mut n);
    windows_cpu(&mut n);
    batch_affine(&mut n);
    glv(&mut n);
    gpu_constants(&mut n);
    gpu_plans(&mut n);
    worked_example(&mut n);
    window_products(&mut n);
    intro(&mut n);
    security(&mut n);
    n
}

#[test]
fn book_numbers_are_computed_from_the_code() {
    let expected = format!(
        "{}\n",
        serde_json::to_string_pretty(&all_numbers().0).unwrap()
    );
    let path = format!("{ROOT}{FILE}");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != expected {
        if std::env::var_os("FASTMSM_BLESS").is_some() {
            std::fs::write(&path, expected).unwrap();
        } else {
            panic!(
                "{FILE} is stale: a number the book cites changed in the code. Rerun with \
                 FASTMSM_BLESS=1 to rewrite it, and read the pages that cite the changed keys:\n{}",
                changed_keys(&committed)
            );
        }
    }
}

/// The keys whose value differs from the committed file's, each with the pages that cite it.
fn changed_keys(committed: &str) -> String {
    let old: BTreeMap<String, Value> = serde_json::from_str(committed).unwrap_or_default();
    let new = all_numbers().0;
    let keys: Vec<&String> = old
        .keys()
        .chain(new.keys())
        .filter(|k| old.get(*k) != new.get(*k))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let pages: Vec<(String, String)> = std::fs::read_dir(format!("{ROOT}book"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .map(|p| {
                    let text = std::fs::read_to_string(&p).unwrap_or_default();
                    (p.file_name().unwrap().to_string_lossy().into_owned(), text)
                })
                .collect()
        })
        .unwrap_or_default();
    keys.iter()
        .map(|k| {
            let cited: Vec<&str> = pages
                .iter()
                .filter(|(_, t)| {
                    t.contains(&format!("{{{{num {k}}}}}")) || t.contains(&format!("{{{{num {k} |"))
                })
                .map(|(p, _)| p.as_str())
                .collect();
            format!(
                "  {k}: {} -> {} (cited in {})",
                old.get(*k).map_or("absent".into(), |v| v.to_string()),
                new.get(*k).map_or("absent".into(), |v| v.to_string()),
                if cited.is_empty() {
                    "no page".into()
                } else {
                    cited.join(", ")
                }
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
