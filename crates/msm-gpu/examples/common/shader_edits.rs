//! Source edits of the assembled MSM shader for timing experiments, shared by msm_bench (timings)
//! and pipeline_stats (what the driver made of the edited kernels). Included with `#[path]`: an
//! example cannot depend on another.

/// Source edits for timing experiments (`--edits a,b`; `a+b` applies both): each replaces exact texts of the assembled
/// WGSL and fails loudly if a text is gone. Edits of earlier shaders are in the history of this file
/// (the `smvp-same-point` diagnostic, for one, read the point by bucket number until 58a1788).
pub fn edit(name: &str, src: String) -> String {
    // `a+b`: edit a, then edit b.
    if let Some((first, rest)) = name.split_once('+') {
        return edit(rest, edit(first, src));
    }
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
        // The combine's, reduction's and fold's general addition in the other form than the
        // rule's (MixedAdd::general_add_suffix): all fourteen products inlined, or stepped.
        "add-inlined" => &[(
            "return point_add_stepped(p, q);",
            "return point_add_inlined(p, q);",
        )],
        "add-stepped" => &[(
            "return point_add_inlined(p, q);",
            "return point_add_stepped(p, q);",
        )],
        // The SMVP's mixed addition in another form than the rule's (MixedAdd::for_limbs): madd-
        // followed by a form's name (inlined, stepped_by_value, stepped_by_coordinate). At
        // 6495d3e and 748e6dd other edits did this with copies of older functions
        // (gpu-msm-experiment-product-site- and -madd-forms-nvidia-h200.json).
        form if form.starts_with("madd-") && !form.starts_with("madd-identity") => {
            let suffix = &form["madd-".len()..];
            assert!(
                ["inlined", "stepped_by_value", "stepped_by_coordinate"].contains(&suffix),
                "unknown edit {name}"
            );
            let call = src
                .find("return add_entry_")
                .unwrap_or_else(|| panic!("edit {name}: no add_entry call"));
            let end = call + src[call..].find('(').expect("call");
            return format!("{}return add_entry_{suffix}{}", &src[..call], &src[end..]);
        }
        // The by-coordinate stepped addition with its identity test settled before step 1's
        // product, so that y need not stay alive through it (measured at 4526fea: no better).
        "madd-identity-first" => &[
            (
                "case 1u: { lhs = entry_y(entry); rhs = zzz1; }",
                "case 1u: { lhs = entry_y(entry); rhs = zzz1; x2_is_zero = x2_is_zero && is_zero(lhs); }",
            ),
            ("if (x2_is_zero && is_zero(lhs)) {", "if (x2_is_zero) {"),
        ],
        other => panic!("unknown edit {other}"),
    };
    let mut src = src;
    for (from, to) in pairs {
        assert!(src.contains(from), "edit {name}: text not found: {from}");
        src = src.replace(from, to);
    }
    src
}
