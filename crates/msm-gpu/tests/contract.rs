//! The host/shader contract, checked by reflection: the assembled msm.wgsl of every curve, parsed
//! and validated by naga (the WGSL front end wgpu itself uses), must declare `Params` with the
//! members, offsets and sizes of `fastmsm_gpu::msm::contract::Params`, the bindings of
//! `BINDINGS` (index, name, access, type), and entry points that use exactly the bindings each
//! `Stage` lists. Runs on the CPU only: no device, no shader compile.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use fastmsm_gpu::mont_wgsl::KernelForm;
use fastmsm_gpu::msm::contract::{Access, BINDINGS, Binding, Element, Params};
use fastmsm_gpu::msm::{GpuCurve, Stage, shader_source_in};
use naga::valid::ModuleInfo;
use naga::{AddressSpace, ArraySize, Module, Scalar, StorageAccess, TypeInner};

/// One assembled module: the curve, whether it carries the batch-affine SMVP, and naga's parse.
type Parsed = (GpuCurve, bool, Module, ModuleInfo);

/// The parsed and validated module of every curve at 16-bit limbs (the layout does not depend on
/// the width; 16 bits needs no 64-bit integers), and with the `experiments` feature the
/// batch-affine module of each short Weierstrass curve (which holds the other mixed-addition
/// forms too), parsed once for all tests.
fn modules() -> &'static [Parsed] {
    static MODULES: OnceLock<Vec<Parsed>> = OnceLock::new();
    MODULES.get_or_init(|| {
        let k = |c: GpuCurve| fastmsm_mont::limb_constants(c.base_field().params(), 16).unwrap();
        #[cfg_attr(not(feature = "experiments"), allow(unused_mut))]
        let mut all: Vec<Parsed> = GpuCurve::ALL
            .into_iter()
            .map(|c| {
                parse(
                    c,
                    false,
                    shader_source_in(c, &k(c), KernelForm::Unrolled).unwrap(),
                )
            })
            .collect();
        #[cfg(feature = "experiments")]
        for c in GpuCurve::ALL.into_iter().filter(|c| !c.is_edwards()) {
            use fastmsm_gpu::experiments::batch_affine::{Inversion, SmvpForm};
            use fastmsm_gpu::experiments::shader_source;
            // Each inversion, per invocation and shared by a workgroup (its barriers must pass
            // naga's uniformity analysis).
            for (shared, inversion) in [(1, Inversion::Fermat), (64, Inversion::Divsteps)] {
                let smvp = SmvpForm::BatchAffine {
                    lanes: 4,
                    shared,
                    inversion,
                };
                let source = shader_source(c, &k(c), KernelForm::Unrolled, smvp, None).unwrap();
                all.push(parse(c, true, source));
            }
        }
        all
    })
}

fn parse(curve: GpuCurve, affine: bool, source: String) -> Parsed {
    let module = naga::front::wgsl::parse_str(&source)
        .unwrap_or_else(|e| panic!("{}: {}", curve.name(), e.emit_to_string(&source)));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}: {e:?}", curve.name()));
    (curve, affine, module, info)
}

fn is_u32(inner: &TypeInner) -> bool {
    *inner == TypeInner::Scalar(Scalar::U32)
}

/// Whether the type of a binding is what the table says.
fn type_matches(module: &Module, ty: naga::Handle<naga::Type>, element: Element) -> bool {
    let t = &module.types[ty];
    match (element, &t.inner) {
        (Element::Params, TypeInner::Struct { .. }) => t.name.as_deref() == Some("Params"),
        (Element::U32s | Element::AtomicU32s, TypeInner::Array { base, size, .. }) => {
            let base = &module.types[*base].inner;
            *size == ArraySize::Dynamic
                && match element {
                    Element::U32s => is_u32(base),
                    _ => *base == TypeInner::Atomic(Scalar::U32),
                }
        }
        _ => false,
    }
}

#[test]
fn params_struct_matches_the_rust_record() {
    for (curve, _, module, _) in modules() {
        let (_, ty) = module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some("Params"))
            .unwrap_or_else(|| panic!("{}: no struct Params", curve.name()));
        let TypeInner::Struct { members, span } = &ty.inner else {
            panic!("{}: Params is not a struct", curve.name());
        };
        let shader: Vec<(String, usize, usize)> = members
            .iter()
            .map(|m| {
                let inner = &module.types[m.ty].inner;
                assert!(
                    is_u32(inner),
                    "{}: Params.{:?} is not u32",
                    curve.name(),
                    m.name
                );
                (
                    m.name.clone().unwrap_or_default(),
                    m.offset as usize,
                    inner.size(module.to_ctx()) as usize,
                )
            })
            .collect();
        let rust: Vec<(String, usize, usize)> = Params::MEMBERS
            .iter()
            .map(|&(name, offset, size)| (name.to_string(), offset, size))
            .collect();
        assert_eq!(
            shader,
            rust,
            "{}: Params members (name, offset, bytes), shader vs Rust",
            curve.name()
        );
        assert_eq!(
            *span as u64,
            Params::BYTES,
            "{}: bytes of Params",
            curve.name()
        );
    }
}

#[test]
fn bindings_match_the_table() {
    for (i, row) in BINDINGS.iter().enumerate() {
        assert_eq!(
            row.binding.index() as usize,
            i,
            "row {i} is not binding {i}"
        );
    }
    for (curve, affine, module, _) in modules() {
        let mut seen = BTreeSet::new();
        for (_, var) in module.global_variables.iter() {
            let Some(rb) = &var.binding else { continue };
            let name = var.name.as_deref().unwrap_or("?");
            assert_eq!(rb.group, 0, "{}: {name} is not in group 0", curve.name());
            let row = BINDINGS.get(rb.binding as usize).unwrap_or_else(|| {
                panic!(
                    "{}: @binding({}) {name} is not in BINDINGS",
                    curve.name(),
                    rb.binding
                )
            });
            assert_eq!(
                name,
                row.name,
                "{}: name of @binding({})",
                curve.name(),
                rb.binding
            );
            let access = match row.access {
                Access::Read => StorageAccess::LOAD,
                Access::ReadWrite => StorageAccess::LOAD | StorageAccess::STORE,
            };
            assert_eq!(
                var.space,
                AddressSpace::Storage { access },
                "{}: address space of {name}",
                curve.name()
            );
            assert!(
                type_matches(module, var.ty, row.element),
                "{}: type of {name} is not {:?}",
                curve.name(),
                row.element
            );
            seen.insert(rb.binding);
        }
        let table: BTreeSet<u32> = Binding::ALL
            .iter()
            .filter(|b| *affine || !b.batch_affine_only())
            .map(|b| b.index())
            .collect();
        assert_eq!(
            seen,
            table,
            "{}: bindings in the shader vs BINDINGS",
            curve.name()
        );
    }
}

#[test]
fn each_stage_uses_exactly_its_bindings() {
    for (curve, affine, module, info) in modules() {
        let names: BTreeSet<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        #[cfg(feature = "experiments")]
        let extra = if *affine {
            &Stage::BATCH_AFFINE[..]
        } else {
            &[]
        };
        #[cfg(not(feature = "experiments"))]
        let extra: &[Stage] = {
            assert!(!affine);
            &[]
        };
        let stages: BTreeSet<&str> = Stage::ALL
            .iter()
            .chain(extra)
            .map(|s| s.entry_point())
            .collect();
        assert_eq!(
            names,
            stages,
            "{}: entry points vs Stage::ALL",
            curve.name()
        );
        for (i, entry) in module.entry_points.iter().enumerate() {
            let stage = Stage::from_name(&entry.name).expect("checked above");
            let uses = info.get_entry_point(i);
            let used: BTreeSet<u32> = module
                .global_variables
                .iter()
                .filter(|(h, _)| !uses[*h].is_empty())
                .filter_map(|(_, v)| v.binding.as_ref().map(|b| b.binding))
                .collect();
            let listed: BTreeSet<u32> = stage.bindings().iter().map(|b| b.index()).collect();
            assert_eq!(
                used,
                listed,
                "{} {stage}: bindings the entry point uses vs Stage::bindings",
                curve.name()
            );
        }
    }
}
