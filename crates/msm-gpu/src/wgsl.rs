//! WGSL assembly. Shaders in `shaders/` name their constants as `{{NAME}}`; Rust fills them in, so
//! every modulus, limb count and width has exactly one source of truth: the Rust side.

use crate::GpuError;

/// Replaces every `{{NAME}}` in `template` by its value.
///
/// Fails when the template uses a name that was not supplied, or when a supplied name is unused
/// (a sign that shader and host disagree about which constants exist).
pub fn render(template: &str, constants: &[(&str, String)]) -> Result<String, GpuError> {
    let mut out = String::with_capacity(template.len());
    let mut used = vec![false; constants.len()];
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find("}}").ok_or_else(|| {
            GpuError::Template(format!("unclosed '{{{{' near: {}", preview(after)))
        })?;
        let name = after[..end].trim();
        let index = constants
            .iter()
            .position(|(n, _)| *n == name)
            .ok_or_else(|| GpuError::Template(format!("no value supplied for {{{{{name}}}}}")))?;
        used[index] = true;
        out.push_str(&constants[index].1);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(GpuError::Template(format!(
            "constant {} is not used by the shader",
            constants[i].0
        )));
    }
    Ok(out)
}

/// Unrolls every loop of the form `for (var i = 0u; i < BOUND; i++) { … }` whose bound is
/// `NUM_LIMBS` (= `limbs`) or a literal such as `4u`, and whose body has no `break`/`continue`:
/// each copy of the body, in its own block, gets the index as a literal.
///
/// Why: GPU compilers keep a `Big` array in registers only when every index is a constant. Inside
/// the large curve kernels NVIDIA's compiler stopped unrolling these loops and moved the arrays to
/// local memory (the SMVP stage ran ~100× slower than its arithmetic; notes of issue 6), so the
/// host unrolls them, as it already generates the Montgomery product straight-line.
pub fn unroll_fixed_loops(src: &str, limbs: usize) -> String {
    let mut out = String::with_capacity(src.len() * 2);
    let mut rest = src;
    while let Some(start) = rest.find("for (var ") {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        match parse_fixed_loop(tail, limbs) {
            Some((index, bound, body, len)) => {
                let body = unroll_fixed_loops(body, limbs);
                for k in 0..bound {
                    out.push_str("{ ");
                    out.push_str(&replace_identifier(&body, index, &format!("{k}u")));
                    out.push_str(" }");
                }
                rest = &tail[len..];
            }
            None => {
                out.push_str("for (var ");
                rest = &tail["for (var ".len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// (index name, trip count, body, length of the whole loop text) of a fixed loop at the start of `s`.
fn parse_fixed_loop(s: &str, limbs: usize) -> Option<(&str, usize, &str, usize)> {
    let header_end = s.find('{')?;
    let header = &s[..header_end];
    let inner = header
        .strip_prefix("for (var ")?
        .trim_end()
        .strip_suffix(')')?;
    let parts: Vec<&str> = inner.split(';').map(str::trim).collect();
    let [init, cond, step] = parts[..] else {
        return None;
    };
    let index = init.strip_suffix("= 0u")?.trim();
    let bound = cond.strip_prefix(index)?.trim().strip_prefix('<')?.trim();
    if step != format!("{index}++") {
        return None;
    }
    let trips = if bound == "NUM_LIMBS" {
        limbs
    } else {
        bound.strip_suffix('u')?.parse().ok()?
    };
    let mut depth = 0usize;
    for (i, ch) in s[header_end..].char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let body = &s[header_end + 1..header_end + i];
                    if body.contains("break") || body.contains("continue") {
                        return None;
                    }
                    return Some((index, trips, body, header_end + i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

fn replace_identifier(text: &str, name: &str, value: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(name) {
        let before = if pos > 0 {
            rest[..pos].chars().last()
        } else {
            out.chars().last()
        };
        let after = rest[pos + name.len()..].chars().next();
        out.push_str(&rest[..pos]);
        if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            out.push_str(name);
        } else {
            out.push_str(value);
        }
        rest = &rest[pos + name.len()..];
    }
    out.push_str(rest);
    out
}

fn preview(s: &str) -> &str {
    &s[..s.len().min(40)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_every_placeholder() {
        let src = render(
            "const N: u32 = {{N}}u; const W = {{ W }}u;",
            &[("N", "20".into()), ("W", "13".into())],
        )
        .unwrap();
        assert_eq!(src, "const N: u32 = 20u; const W = 13u;");
    }

    #[test]
    fn unrolls_fixed_loops_only() {
        let src = "for (var i = 0u; i < NUM_LIMBS; i++) { r[i] = a[i] + i_x; for (var k = 0u; k < 2u; k++) { c[k][i] = 0u; } }";
        let out = unroll_fixed_loops(src, 2);
        assert_eq!(
            out,
            "{  r[0u] = a[0u] + i_x; {  c[0u][0u] = 0u;  }{  c[1u][0u] = 0u;  }  }{  r[1u] = a[1u] + i_x; {  c[0u][1u] = 0u;  }{  c[1u][1u] = 0u;  }  }"
        );
        // Bounds that are not fixed, or bodies that leave early, stay loops.
        for kept in [
            "for (var i = 0u; i < n; i++) { x += i; }",
            "for (var i = 0u; i < 4u; i++) { if (x) { break; } }",
        ] {
            assert_eq!(unroll_fixed_loops(kept, 2), kept);
        }
    }

    #[test]
    fn rejects_missing_and_unused_constants() {
        assert!(render("{{N}}", &[]).is_err());
        assert!(render("x", &[("N", "1".into())]).is_err());
        assert!(render("{{N", &[("N", "1".into())]).is_err());
    }
}
