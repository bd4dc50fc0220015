//! Source edits of the assembled MSM shader for timing experiments, shared by msm_bench (timings)
//! and pipeline_stats (what the driver made of the edited kernels). Included with `#[path]`: an
//! example cannot depend on another.

/// Source edits for timing experiments (`--edits a,b`): each replaces exact texts of the assembled
/// WGSL and fails loudly if a text is gone. Edits of earlier shaders are in the history of this file
/// (the `smvp-same-point` diagnostic, for one, read the point by bucket number until 58a1788).
pub fn edit(name: &str, src: String) -> String {
    let smvp_add = "acc = add_entry(acc, entries[j * params.n + e]);";
    let pairs: &[(&str, &str)] = match name {
        "none" => return src,
        // SMVP through the general XYZZ addition instead of the mixed one (inlined form).
        "smvp-general-add" => &[(
            "return point_add_affine(p, entry_affine(entry));",
            "let a = entry_affine(entry); return point_add(p, Point(a.x, a.y, ONE_MONT, ONE_MONT));",
        )],
        // SMVP without the sign (wrong result; timing only).
        "smvp-no-sign" => &[("if ((entry & NEGATIVE) != 0u) {", "if (false) {")],
        // Every entry added twice (wrong result; timing only): the marginal cost of one mixed
        // addition in place, against everything else the SMVP loop does per entry.
        "smvp-add-twice" => &[(
            smvp_add,
            "acc = add_entry(add_entry(acc, entries[j * params.n + e]), entries[j * params.n + e]);",
        )],
        // Mixed addition (inlined form) without its rare doubling branch (P + P), timing only:
        // does the branch cost registers or code size in the hot loop? Results are wrong: the
        // points here are consecutive multiples of G, so a signed bucket sum P_a − P_b + P_c can
        // meet P_(a−b+c).
        "smvp-no-double" => &[("return affine_double(a);", "return point_identity();")],
        // Every stage in workgroups of 128 or 256 invocations instead of 64. The host still
        // dispatches ⌈threads/64⌉ workgroups, so the extra invocations find nothing to do and
        // return: correct results, the occupancy of a larger workgroup.
        "wg128" => &[(
            "const WORKGROUP_SIZE: u32 = 64u;",
            "const WORKGROUP_SIZE: u32 = 128u;",
        )],
        "wg256" => &[(
            "const WORKGROUP_SIZE: u32 = 64u;",
            "const WORKGROUP_SIZE: u32 = 256u;",
        )],
        // The SMVP's mixed addition in the other form than the rule's (MixedAdd::for_limbs). At
        // commit 6495d3e the edits 'straight-line-adds' and 'straight-line-add' did this with a
        // copy of the old functions (gpu-msm-experiment-product-site-nvidia-h200.json).
        "madd-inlined" => &[(
            "return add_entry_stepped(p, entry);",
            "return add_entry_inlined(p, entry);",
        )],
        "madd-stepped" => &[(
            "return add_entry_inlined(p, entry);",
            "return add_entry_stepped(p, entry);",
        )],
        // The stepped addition with the input point read once, before its loop, and held in
        // registers through all ten steps (as at f5108c0).
        "madd-by-value" => &[
            (
                "    var x2_is_zero = false;",
                "    var x2_is_zero = false;\n    let a = entry_affine(entry);",
            ),
            ("case 0u: { lhs = entry_x(entry);", "case 0u: { lhs = a.x;"),
            ("case 1u: { lhs = entry_y(entry);", "case 1u: { lhs = a.y;"),
        ],
        // The by-coordinate stepped addition with its identity test settled before step 1's
        // product, so that y need not stay alive through it (the next A/B of the ledger).
        "madd-identity-first" => &[
            (
                "case 1u: { lhs = entry_y(entry); rhs = zzz1; }",
                "case 1u: { lhs = entry_y(entry); rhs = zzz1; x2_is_zero = x2_is_zero && is_zero(lhs); }",
            ),
            ("if (x2_is_zero && is_zero(lhs)) {", "if (x2_is_zero) {"),
        ],
        // The same, faithfully: the stepped function of 58a1788 itself, called in its place.
        "madd-by-value-58a1788" => {
            let call = "return add_entry_stepped(p, entry);";
            assert!(src.contains(call), "edit {name}: text not found: {call}");
            return format!(
                "{}\n{}",
                src.replace(
                    call,
                    "return point_add_affine_stepped(p, entry_affine(entry));"
                ),
                include_str!("stepped_by_value.wgsl")
            );
        }
        other => panic!("unknown edit {other}"),
    };
    let mut src = src;
    for (from, to) in pairs {
        assert!(src.contains(from), "edit {name}: text not found: {from}");
        src = src.replace(from, to);
    }
    src
}
