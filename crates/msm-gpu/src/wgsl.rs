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
        let end = after
            .find("}}")
            .ok_or_else(|| GpuError::Template(format!("unclosed '{{{{' near: {}", preview(after))))?;
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
        return Err(GpuError::Template(format!("constant {} is not used by the shader", constants[i].0)));
    }
    Ok(out)
}

fn preview(s: &str) -> &str {
    &s[..s.len().min(40)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_every_placeholder() {
        let src = render("const N: u32 = {{N}}u; const W = {{ W }}u;", &[("N", "20".into()), ("W", "13".into())]).unwrap();
        assert_eq!(src, "const N: u32 = 20u; const W = 13u;");
    }

    #[test]
    fn rejects_missing_and_unused_constants() {
        assert!(render("{{N}}", &[]).is_err());
        assert!(render("x", &[("N", "1".into())]).is_err());
        assert!(render("{{N", &[("N", "1".into())]).is_err());
    }
}
