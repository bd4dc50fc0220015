//! Generates the WGSL Montgomery product for one field and limb width, straight-line.
//!
//! Written as loops, the product indexes limb arrays with loop variables; GPU compilers then tend to
//! place those arrays in (slow) local memory. Generated straight-line, every limb is a named scalar
//! and every carry decision of the nSafe schedule is made here, at generation time, so the shader
//! has no branches at all. The arithmetic is exactly that of the CPU twins (`fastmsm_mont::gpu_twin`
//! for 12..=16-bit limbs, `reduced_radix` for 29/30, the 64-bit CIOS for 32), which the tests
//! compare against limb for limb.

use std::fmt::Write;

use fastmsm_mont::LimbConstants;

/// How the Montgomery product is generated.
///
/// Straight-line code keeps every limb in a named register, which is what NVIDIA's compiler needs
/// to stay out of local memory, but it is large: a product of n limbs is n² statements, and every
/// curve formula calls it about ten times. Shader compilers whose time grows faster than the code
/// (LLVM in lavapipe and SwiftShader, a browser's WGSL front end) spend most of their time on it;
/// the compact form loops over the product's rows, n times less code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KernelForm {
    /// The straight-line product (the fast form on the GPUs measured so far).
    #[default]
    Unrolled,
    /// The reduced-radix product as a loop over its rows.
    Compact,
}

impl KernelForm {
    /// Both forms, for tests and calibration.
    pub const ALL: [KernelForm; 2] = [KernelForm::Unrolled, KernelForm::Compact];

    /// The form's name in profiles, their JSON and reports: `unrolled` or `compact`.
    pub fn name(self) -> &'static str {
        match self {
            KernelForm::Unrolled => "unrolled",
            KernelForm::Compact => "compact",
        }
    }

    /// The form named `name` (`unrolled` or `compact`).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

// ANCHOR: generator
/// WGSL source of `fn mont_mul(x: Big, y: Big) -> Big` for the constants' field and width.
pub fn mont_mul_source(k: &LimbConstants) -> String {
    mont_mul_source_in(k, KernelForm::Unrolled)
}

/// As [`mont_mul_source`], in the given form (the 16- and 32-bit CIOS products exist only
/// unrolled: no default plan uses them).
pub fn mont_mul_source_in(k: &LimbConstants, form: KernelForm) -> String {
    let rows = form == KernelForm::Compact;
    match k.limb_bits {
        12..=15 => reduced_radix(k, Columns::U32, rows),
        16 => cios16(k),
        26..=30 => reduced_radix(k, Columns::U64, rows),
        32 => cios32_no_carry(k),
        w => {
            panic!("no WGSL Montgomery product for {w}-bit limbs (supported: 12..=16, 26..=30, 32)")
        }
    }
}

/// The integer type of the reduced-radix column sums: u32 in portable WGSL (12..=15-bit limbs),
/// u64 with SHADER_INT64 (26..=30-bit limbs, whose 52..60-bit products fit many times in a u64).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Columns {
    U32,
    U64,
}

/// Loop iterations one generated product runs: its rows in the compact form (which only the
/// reduced-radix widths have), none straight-line. Devices that cut long loops short count them
/// (`msm::loops`).
pub fn product_loop_iterations(k: &LimbConstants, form: KernelForm) -> u32 {
    let looped = matches!(k.limb_bits, 12..=15 | 26..=30) && form == KernelForm::Compact;
    if looped { k.limbs as u32 } else { 0 }
}

/// Reduced radix (Mitscha-Baude; Derei & Koh for WGSL): each step adds xᵢ·yⱼ + q·pⱼ into column
/// sums s_j and only carries every nSafe steps, because the carry budget allows it. With u64
/// columns each product is one 32×32 → 64-bit multiply-add and nothing else, where the 32-bit
/// CIOS needs a 64-bit addition and a split after every product.
///
/// The carry schedule depends on the column j only, never on the step i, so every step has the
/// same text with xᵢ in place of x₀: `rows` emits one step inside a loop over i instead of n
/// copies of it.
fn reduced_radix(k: &LimbConstants, columns: Columns, rows: bool) -> String {
    let n = k.limbs;
    let n_safe = k.n_safe() as usize;
    assert!(n_safe > 0, "reduced radix needs nSafe ≥ 1");
    // A limb (u32 in a Big) or constant as a column value.
    let wide = |v: String| {
        if columns == Columns::U64 {
            format!("u64({v})")
        } else {
            v
        }
    };
    let mask = wide("LIMB_MASK".into());
    let mut src = String::new();
    let w = &mut src;
    writeln!(w, "fn mont_mul(x: Big, y: Big) -> Big {{").unwrap();
    for j in 0..n {
        writeln!(w, "    let y{j} = {};", wide(format!("y[{j}]"))).unwrap();
        writeln!(w, "    var s{j} = {};", wide("0u".into())).unwrap();
    }
    let steps: Vec<String> = if rows {
        // No array indexed by the loop counter: x's limbs are named registers that shift down
        // one place per row, so xᵢ is always x0. (An indexed array is a trap twice over: NVIDIA
        // moves it to local memory, and llvmpipe computed wrong products from one inside the
        // MSM's divergent loops.)
        for j in 0..n {
            writeln!(w, "    var x{j} = x[{j}];").unwrap();
        }
        // `i += 1u` rather than `i++`: the host's loop unroller leaves this loop alone.
        vec!["i".into()]
    } else {
        (0..n).map(|i| i.to_string()).collect()
    };
    for i in &steps {
        if rows {
            writeln!(w, "    for (var i = 0u; i < {n}u; i += 1u) {{ // step i").unwrap();
            writeln!(w, "        let xi = {};", wide("x0".into())).unwrap();
            for j in 1..n {
                writeln!(w, "        x{} = x{j};", j - 1).unwrap();
            }
        } else {
            writeln!(w, "    {{ // step {i}").unwrap();
            writeln!(w, "        let xi = {};", wide(format!("x[{i}]"))).unwrap();
        }
        writeln!(w, "        let t0 = s0 + xi * y0;").unwrap();
        // q = t0·μ mod 2^w depends on t0's low w ≤ 32 bits only: a u32 product suffices.
        writeln!(
            w,
            "        let q = {};",
            wide(format!("(u32(t0) * {}u) & LIMB_MASK", k.mu))
        )
        .unwrap();
        writeln!(
            w,
            "        var c = (t0 + q * {}) >> LIMB_BITS;",
            wide(format!("{}u", k.modulus[0]))
        )
        .unwrap();
        for j in 1..n {
            let carry_in = if (j - 1) % n_safe == 0 { " + c" } else { "" };
            writeln!(
                w,
                "        let t{j} = s{j} + xi * y{j} + q * {}{carry_in};",
                wide(format!("{}u", k.modulus[j]))
            )
            .unwrap();
            if j % n_safe == 0 {
                writeln!(w, "        c = t{j} >> LIMB_BITS;").unwrap();
                writeln!(w, "        s{} = t{j} & {mask};", j - 1).unwrap();
            } else {
                writeln!(w, "        s{} = t{j};", j - 1).unwrap();
            }
        }
        let top = if (n - 1).is_multiple_of(n_safe) {
            "c".to_string()
        } else {
            wide("0u".into())
        };
        writeln!(w, "        s{} = {top};", n - 1).unwrap();
        writeln!(w, "    }}").unwrap();
    }
    // The column sums are not yet limbs: carry once through, then subtract p if needed.
    writeln!(w, "    var c = {};", wide("0u".into())).unwrap();
    for j in 0..n {
        writeln!(
            w,
            "    let f{j} = s{j} + c; let l{j} = u32(f{j} & {mask}); c = f{j} >> LIMB_BITS;"
        )
        .unwrap();
    }
    reduce_once(w, k, "l", "0u");
    writeln!(w, "}}").unwrap();
    src
}

/// CIOS with 16-bit limbs: (2¹⁶−1)² + 2(2¹⁶−1) is exactly 2³²−1, so every product must be carried
/// at once (nSafe = 0); the running value has one extra top word, 0 or 1 between rows.
fn cios16(k: &LimbConstants) -> String {
    let n = k.limbs;
    let mut src = String::new();
    let w = &mut src;
    writeln!(w, "fn mont_mul(x: Big, y: Big) -> Big {{").unwrap();
    for j in 0..n {
        writeln!(w, "    let y{j} = y[{j}];").unwrap();
        writeln!(w, "    var t{j} = 0u;").unwrap();
    }
    writeln!(w, "    var t_hi = 0u;").unwrap();
    for i in 0..n {
        writeln!(w, "    {{ // row {i}").unwrap();
        writeln!(w, "        let xi = x[{i}];").unwrap();
        writeln!(w, "        var c = 0u;").unwrap();
        for j in 0..n {
            writeln!(
                w,
                "        {{ let s = t{j} + xi * y{j} + c; t{j} = s & LIMB_MASK; c = s >> 16u; }}"
            )
            .unwrap();
        }
        writeln!(w, "        let top = t_hi + c;").unwrap();
        writeln!(w, "        let m = (t0 * {}u) & LIMB_MASK;", k.mu).unwrap();
        writeln!(w, "        c = (t0 + m * {}u) >> 16u;", k.modulus[0]).unwrap();
        for j in 1..n {
            writeln!(
                w,
                "        {{ let s = t{j} + m * {}u + c; t{} = s & LIMB_MASK; c = s >> 16u; }}",
                k.modulus[j],
                j - 1
            )
            .unwrap();
        }
        writeln!(w, "        let s = top + c;").unwrap();
        writeln!(w, "        t{} = s & LIMB_MASK;", n - 1).unwrap();
        writeln!(w, "        t_hi = s >> 16u;").unwrap();
        writeln!(w, "    }}").unwrap();
    }
    reduce_once(w, k, "t", "t_hi");
    writeln!(w, "}}").unwrap();
    src
}

/// CIOS with 32-bit limbs and 64-bit products (needs SHADER_INT64), in gnark's "no-carry" form:
/// when p's top limb is below 2³¹ − 1 the running value never needs an extra top word, so each row
/// is two interleaved multiply-accumulate chains (x·y and m·p) and nothing else. A 32×32 → 64-bit
/// product plus two 32-bit addends is at most 2⁶⁴ − 1, so every step fits a u64.
fn cios32_no_carry(k: &LimbConstants) -> String {
    let n = k.limbs;
    assert!(
        k.modulus[n - 1] < 0x7fff_ffff,
        "no-carry CIOS needs p's top 32-bit limb below 2^31 - 1"
    );
    let mut src = String::new();
    let w = &mut src;
    writeln!(w, "fn mont_mul(x: Big, y: Big) -> Big {{").unwrap();
    for j in 0..n {
        writeln!(w, "    let y{j} = u64(y[{j}]);").unwrap();
        writeln!(w, "    var t{j} = 0u;").unwrap();
    }
    for i in 0..n {
        writeln!(w, "    {{ // row {i}").unwrap();
        writeln!(w, "        let xi = u64(x[{i}]);").unwrap();
        writeln!(w, "        var s = u64(t0) + xi * y0;").unwrap();
        writeln!(w, "        var a = s >> 32u;").unwrap();
        writeln!(w, "        let m = u32(s) * {}u;", k.mu).unwrap();
        writeln!(
            w,
            "        var c = (u64(u32(s)) + u64(m) * u64({}u)) >> 32u;",
            k.modulus[0]
        )
        .unwrap();
        for j in 1..n {
            writeln!(w, "        s = u64(t{j}) + xi * y{j} + a;").unwrap();
            writeln!(w, "        a = s >> 32u;").unwrap();
            writeln!(
                w,
                "        s = u64(u32(s)) + u64(m) * u64({}u) + c;",
                k.modulus[j]
            )
            .unwrap();
            writeln!(w, "        t{} = u32(s);", j - 1).unwrap();
            writeln!(w, "        c = s >> 32u;").unwrap();
        }
        writeln!(w, "        t{} = u32(c + a);", n - 1).unwrap();
        writeln!(w, "    }}").unwrap();
    }
    // Below 2p: subtract p once in 64-bit differences (a borrow is the top bit) and keep t if negative.
    writeln!(w, "    var borrow = 0u;").unwrap();
    for j in 0..n {
        writeln!(
            w,
            "    let d{j} = u64(t{j}) - u64({}u) - u64(borrow); borrow = u32(d{j} >> 63u);",
            k.modulus[j]
        )
        .unwrap();
    }
    let limbs: Vec<String> = (0..n)
        .map(|j| format!("select(u32(d{j}), t{j}, borrow == 1u)"))
        .collect();
    writeln!(w, "    return Big({});", limbs.join(", ")).unwrap();
    writeln!(w, "}}").unwrap();
    src
}

/// Emits the return of `v + top·R` (limbs named `{v}0…`, below 2p) reduced below p: subtract p,
/// keep the difference unless it borrowed past `top`. Scalars only, so nothing leaves registers.
fn reduce_once(w: &mut String, k: &LimbConstants, v: &str, top: &str) {
    writeln!(w, "    var borrow = 0u;").unwrap();
    for j in 0..k.limbs {
        writeln!(
            w,
            "    let d{j} = {v}{j} - {}u - borrow; borrow = d{j} >> 31u;",
            k.modulus[j]
        )
        .unwrap();
    }
    writeln!(
        w,
        "    let keep = {top} < borrow; // v < p: the subtraction went negative"
    )
    .unwrap();
    let limbs: Vec<String> = (0..k.limbs)
        .map(|j| format!("select(d{j} & LIMB_MASK, {v}{j}, keep)"))
        .collect();
    writeln!(w, "    return Big({});", limbs.join(", ")).unwrap();
}
// ANCHOR_END: generator

/// Integer operations in one generated Montgomery product: the cost model of the chapter
/// "Montgomery in WGSL" (every operator of the straight-line body is one GPU integer instruction
/// before the compiler fuses multiply-adds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpCount {
    /// Multiplications (limb products).
    pub multiplies: usize,
    /// Additions, subtractions, shifts, masks and selects.
    pub others: usize,
}

/// Counts the operators of the straight-line product for `k`'s field and limb width, in the
/// generated source itself, so the count follows the generator.
pub fn count_ops(k: &LimbConstants) -> OpCount {
    let src = mont_mul_source(k);
    let count = |pat: &str| src.matches(pat).count();
    OpCount {
        multiplies: count(" * "),
        others: count(" + ") + count(" - ") + count(" >> ") + count(" & ") + count("select("),
    }
}
