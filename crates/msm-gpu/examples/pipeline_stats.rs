//! What the Vulkan driver made of each shader: registers per invocation, spills, instruction
//! counts (whatever the driver reports through VK_KHR_pipeline_executable_properties; NVIDIA's
//! reports a register count). wgpu does not expose this, so the probe compiles the same WGSL the
//! way wgpu's Vulkan backend does (naga → SPIR-V with bounds checks and loop bounding) and builds
//! each entry point as a pipeline on its own ash device with statistics capture on.
//!
//! usage: pipeline_stats [--curves bls12-377,bn254] [--limb-bits 29,13] [--edits none,NAME] [--out FILE]
//!        [--ir DIR [--ir-entries smvp,chain]]
//! (--edits: msm_bench's source edits, common/shader_edits.rs; each row names its edit; --ir: the
//! driver's internal representations of those entry points, one file each, where it offers any;
//! NVIDIA's 580 driver on the H200 offers none, so its machine code stays out of sight)
//!
//! Occupancy follows from the registers: an SM with 64 Ki registers holds at most
//! 65536 / (32 · registers) warps (NVIDIA, allocation granularity aside).

use std::collections::BTreeMap;
use std::ffi::CStr;

use ash::vk;
use fastmsm_gpu::msm::{GpuCurve, shader_source};

#[path = "common/shader_edits.rs"]
mod shader_edits;
use fastmsm_mont::limb_constants;
use serde_json::{Value, json};

/// SPIR-V words and the descriptor type of each binding.
type Spirv = (Vec<u32>, Vec<(u32, vk::DescriptorType)>);

/// SPIR-V for one entry point, with the options wgpu-hal's Vulkan backend uses by default.
fn spirv(source: &str, entry: &str) -> Result<Spirv, String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| format!("{e:?}"))?;
    let mut options = naga::back::spv::Options {
        lang_version: (1, 3),
        force_loop_bounding: true,
        ..Default::default()
    };
    options.bounds_check_policies = naga::proc::BoundsCheckPolicies {
        index: naga::proc::BoundsCheckPolicy::Restrict,
        buffer: naga::proc::BoundsCheckPolicy::Restrict,
        image_load: naga::proc::BoundsCheckPolicy::Restrict,
        binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
    };
    let pipeline = naga::back::spv::PipelineOptions {
        entry_point: entry.into(),
        shader_stage: naga::ShaderStage::Compute,
    };
    let words = naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline))
        .map_err(|e| e.to_string())?;
    // One layout for every entry point of the module: all its bindings (group 0 only here).
    let bindings = module
        .global_variables
        .iter()
        .filter_map(|(_, var)| {
            let kind = match var.space {
                naga::AddressSpace::Storage { .. } => vk::DescriptorType::STORAGE_BUFFER,
                naga::AddressSpace::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
                _ => return None,
            };
            var.binding.as_ref().map(|b| (b.binding, kind))
        })
        .collect();
    Ok((words, bindings))
}

struct Probe {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    executables: ash::khr::pipeline_executable_properties::Device,
    adapter: String,
}

impl Probe {
    fn new() -> Result<Self, String> {
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
        let instance = unsafe {
            entry.create_instance(
                &vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
        }
        .map_err(|e| format!("vkCreateInstance: {e}"))?;
        let wanted = ash::khr::pipeline_executable_properties::NAME;
        // Prefer a real GPU over a CPU implementation (lavapipe) when both are present.
        let mut candidates: Vec<_> = unsafe { instance.enumerate_physical_devices() }
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|&pd| {
                unsafe { instance.enumerate_device_extension_properties(pd) }.is_ok_and(|exts| {
                    exts.iter()
                        .any(|x| x.extension_name_as_c_str() == Ok(wanted))
                })
            })
            .collect();
        candidates.sort_by_key(|&pd| unsafe { instance.get_physical_device_properties(pd) }.device_type == vk::PhysicalDeviceType::CPU);
        let physical = *candidates
            .first()
            .ok_or("no Vulkan device offers VK_KHR_pipeline_executable_properties")?;
        let props = unsafe { instance.get_physical_device_properties(physical) };
        let adapter = props
            .device_name_as_c_str()
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .into_owned();
        let family = unsafe { instance.get_physical_device_queue_family_properties(physical) }
            .iter()
            .position(|q| q.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("no compute queue")? as u32;
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let supported = unsafe { instance.get_physical_device_features(physical) };
        let features =
            vk::PhysicalDeviceFeatures::default().shader_int64(supported.shader_int64 == vk::TRUE);
        let mut executable_info =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
                .pipeline_executable_info(true);
        let extensions = [wanted.as_ptr()];
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&extensions)
            .enabled_features(&features)
            .push_next(&mut executable_info);
        let device = unsafe { instance.create_device(physical, &info, None) }
            .map_err(|e| format!("vkCreateDevice: {e}"))?;
        let executables = ash::khr::pipeline_executable_properties::Device::new(&instance, &device);
        Ok(Self {
            _entry: entry,
            instance,
            device,
            executables,
            adapter,
        })
    }

    /// Statistics of every executable of the pipeline built from `words` (name → value).
    fn stats(
        &self,
        words: &[u32],
        entry: &str,
        bindings: &[(u32, vk::DescriptorType)],
        dump: Option<&str>,
    ) -> Result<Vec<BTreeMap<String, Value>>, String> {
        let d = &self.device;
        let layout_bindings: Vec<_> = bindings
            .iter()
            .map(|&(b, kind)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(kind)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        unsafe {
            let set_layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                    None,
                )
                .map_err(|e| e.to_string())?;
            let set_layouts = [set_layout];
            let layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                    None,
                )
                .map_err(|e| e.to_string())?;
            let module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
                .map_err(|e| e.to_string())?;
            let name = std::ffi::CString::new(entry).expect("entry point name");
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(&name);
            let create = [vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(layout)
                .flags(if dump.is_some() {
                    vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
                        | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR
                } else {
                    vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
                })];
            let pipeline = d
                .create_compute_pipelines(vk::PipelineCache::null(), &create, None)
                .map_err(|(_, e)| format!("{entry}: vkCreateComputePipelines: {e}"))?[0];
            let mut out = Vec::new();
            let executables = self
                .executables
                .get_pipeline_executable_properties(
                    &vk::PipelineInfoKHR::default().pipeline(pipeline),
                )
                .map_err(|e| e.to_string())?;
            for index in 0..executables.len() as u32 {
                let info = vk::PipelineExecutableInfoKHR::default()
                    .pipeline(pipeline)
                    .executable_index(index);
                let mut map = BTreeMap::new();
                for s in self
                    .executables
                    .get_pipeline_executable_statistics(&info)
                    .map_err(|e| e.to_string())?
                {
                    let key = s
                        .name_as_c_str()
                        .map(CStr::to_string_lossy)
                        .map_err(|e| e.to_string())?
                        .into_owned();
                    let value = match s.format {
                        vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                            json!(s.value.b32 == vk::TRUE)
                        }
                        vk::PipelineExecutableStatisticFormatKHR::INT64 => json!(s.value.i64),
                        vk::PipelineExecutableStatisticFormatKHR::UINT64 => json!(s.value.u64),
                        vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => json!(s.value.f64),
                        _ => continue,
                    };
                    map.insert(key, value);
                }
                if let Some(prefix) = dump {
                    let names = self.dump_representations(&info, &format!("{prefix}-{index}"))?;
                    map.insert("internal representations".into(), json!(names));
                }
                out.push(map);
            }
            d.destroy_pipeline(pipeline, None);
            d.destroy_shader_module(module, None);
            d.destroy_pipeline_layout(layout, None);
            d.destroy_descriptor_set_layout(set_layout, None);
            Ok(out)
        }
    }
}

impl Probe {
    /// Writes each internal representation the driver offers for one executable (NVIDIA's may
    /// include its machine code) to `{prefix}-{name}.txt`; returns the names. The Vulkan call is
    /// made three times: the count, then each representation's size, then the data.
    fn dump_representations(
        &self,
        info: &vk::PipelineExecutableInfoKHR,
        prefix: &str,
    ) -> Result<Vec<String>, String> {
        let f = self
            .executables
            .fp()
            .get_pipeline_executable_internal_representations_khr;
        let device = self.device.handle();
        let mut count = 0u32;
        unsafe { f(device, info, &mut count, std::ptr::null_mut()) }
            .result()
            .map_err(|e| format!("internal representations: {e}"))?;
        let mut reps =
            vec![vk::PipelineExecutableInternalRepresentationKHR::default(); count as usize];
        unsafe { f(device, info, &mut count, reps.as_mut_ptr()) }
            .result()
            .map_err(|e| format!("internal representation sizes: {e}"))?;
        let mut buffers: Vec<Vec<u8>> = reps.iter().map(|r| vec![0u8; r.data_size]).collect();
        for (r, b) in reps.iter_mut().zip(&mut buffers) {
            r.p_data = b.as_mut_ptr().cast();
        }
        unsafe { f(device, info, &mut count, reps.as_mut_ptr()) }
            .result()
            .map_err(|e| format!("internal representation data: {e}"))?;
        let mut names = Vec::new();
        for (r, data) in reps.iter().zip(&buffers) {
            let name = r
                .name_as_c_str()
                .map(|c| c.to_string_lossy().into_owned())
                .unwrap_or_else(|_| "unnamed".into());
            let file: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let text = if r.is_text == vk::TRUE {
                data.split(|&b| b == 0).next().unwrap_or(&[]).to_vec()
            } else {
                data.clone()
            };
            std::fs::write(format!("{prefix}-{file}.txt"), text).map_err(|e| e.to_string())?;
            names.push(name);
        }
        Ok(names)
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn list<T: std::str::FromStr>(s: &str, what: &str) -> Vec<T> {
    s.split(',')
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{what}: cannot parse {v:?}"))
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut curves, mut widths, mut out) = (
        vec![GpuCurve::Bls12_377, GpuCurve::Bn254],
        vec![29u32, 13],
        None::<String>,
    );
    let mut stamp = serde_json::Map::new();
    let mut edits = vec!["none".to_string()];
    // --ir DIR: also write the driver's internal representations of the --ir-entries kernels.
    let (mut ir_dir, mut ir_entries) = (None::<String>, vec!["smvp".to_string(), "chain".into()]);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--curves" => {
                curves = value
                    .split(',')
                    .map(|c| GpuCurve::from_name(c).unwrap_or_else(|| panic!("unknown curve {c}")))
                    .collect()
            }
            "--limb-bits" => widths = list(&value, "--limb-bits"),
            "--out" => out = Some(value),
            "--edits" => edits = list(&value, "--edits"),
            "--ir" => ir_dir = Some(value),
            "--ir-entries" => ir_entries = list(&value, "--ir-entries"),
            "--commit" | "--date" => {
                stamp.insert(flag.trim_start_matches('-').into(), json!(value));
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let probe = Probe::new().unwrap_or_else(|e| panic!("{e}"));
    println!("adapter: {}", probe.adapter);
    let mut rows = Vec::new();
    for &curve in &curves {
        for &bits in &widths {
            let constants =
                limb_constants(curve.base_field().params(), bits).unwrap_or_else(|e| panic!("{e}"));
            let plain = shader_source(curve, &constants).unwrap_or_else(|e| panic!("{e}"));
            let field =
                fastmsm_gpu::field::shader_source(&constants, fastmsm_gpu::msm::WORKGROUP_SIZE)
                    .unwrap_or_else(|e| panic!("{e}"));
            let field = fastmsm_gpu::wgsl::unroll_fixed_loops(&field, constants.limbs);
            // The chained product does not depend on the MSM's edits: once per width.
            let sources: Vec<(&str, String)> = edits
                .iter()
                .map(|e| (e.as_str(), shader_edits::edit(e, plain.clone())))
                .collect();
            let kernels = sources
                .iter()
                .flat_map(|(edit, msm)| {
                    fastmsm_gpu::msm::Stage::ALL
                        .iter()
                        .map(move |s| (*edit, s.entry_point(), msm))
                })
                .chain([("none", "chain", &field)]);
            for (edit, entry, source) in kernels {
                let (words, bindings) = spirv(source, entry)
                    .unwrap_or_else(|e| panic!("{} {bits}-bit {entry}: {e}", curve.name()));
                // A pipeline the driver fails to build is a finding too (NVIDIA's compiler has
                // failed on large kernels): record the error and go on.
                let dump = ir_dir
                    .as_ref()
                    .filter(|_| ir_entries.iter().any(|e| e == entry))
                    .map(|dir| format!("{dir}/{}-{bits}-{edit}-{entry}", curve.name()));
                let row = match probe.stats(&words, entry, &bindings, dump.as_deref()) {
                    Ok(stats) => {
                        let summary: Vec<String> = stats
                            .iter()
                            .flat_map(|m| m.iter().map(|(k, v)| format!("{k}={v}")))
                            .collect();
                        println!(
                            "{:<10} {bits:>2}-bit {edit:<12} {entry:<15} {}",
                            curve.name(),
                            summary.join(" ")
                        );
                        json!({ "curve": curve.name(), "limb_bits": bits, "limbs": constants.limbs, "edit": edit, "entry": entry, "executables": stats })
                    }
                    Err(error) => {
                        println!(
                            "{:<10} {bits:>2}-bit {edit:<12} {entry:<15} FAILED: {error}",
                            curve.name()
                        );
                        json!({ "curve": curve.name(), "limb_bits": bits, "limbs": constants.limbs, "edit": edit, "entry": entry, "error": error })
                    }
                };
                rows.push(row);
            }
        }
    }
    if let Some(path) = out {
        let mut doc = json!({
            "about": "Driver statistics of each compute pipeline (VK_KHR_pipeline_executable_properties), WGSL compiled by naga as wgpu's Vulkan backend does; crates/msm-gpu/examples/pipeline_stats.rs",
            "suite": "pipeline-stats",
            "device": { "name": probe.adapter, "backend": "Vulkan" },
            "results": rows,
        });
        doc.as_object_mut().expect("object").extend(stamp);
        std::fs::write(&path, serde_json::to_string_pretty(&doc).expect("json"))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}
