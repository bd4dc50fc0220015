//! What the MSM's plan needs to know about one GPU, as a value instead of constants in the code.
//!
//! A [`DeviceProfile`] holds every number [`crate::msm::Plan`] would otherwise take from the GPU the
//! kernels were first tuned on: how many SMVP invocations the device runs at once for a kernel of
//! a given size, whether its 64-bit integer products are fast, the limb width it prefers, the
//! reduction's thread budget, when to split the input into two batches, and the bounds on the
//! SMVP chunk. The adapter's limits (binding size, workgroup storage) still bound every plan on
//! top of the profile.
//!
//! A profile comes from one of three places, recorded in [`Origin`]:
//! * **named** ([`DeviceProfile::named`]): `h200`, `h100`, `swiftshader`, `lavapipe`, the safe
//!   `portable` one and `mobile` (a phone's GPU within WebGPU's default limits), for reproducible
//!   runs and for tests that pin a plan;
//! * **calibrated** on the device ([`crate::calibrate`]): a short, time-bounded measurement that
//!   picks the limb width and finds how many SMVP invocations run at once;
//! * **cached**: a calibration read back (natively a JSON file, see [`cache`]; in the browser the
//!   widget's own store).
//!
//! The MSM's default ([`crate::msm::ProfileChoice::Auto`]) never calibrates: it takes this
//! device's cached calibration, else the named profile that matches the adapter
//! ([`DeviceProfile::for_adapter`]), so that the first MSM waits only for its pipelines.

pub mod cache;

use fastmsm_mont::Field;
use serde_json::{Value, json};

use crate::mont_wgsl::KernelForm;
use crate::{GpuContext, GpuError};

/// How a profile was obtained.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// One of the named profiles.
    Named,
    /// Measured on this device now.
    Calibrated,
    /// Measured on this device earlier and read back from a cache.
    Cached,
    /// The `portable` profile in place of a calibration that failed or was not run: why.
    Fallback(String),
}

impl Origin {
    /// The origin's name in the profile's JSON and summary: `named`, `calibrated`, `cached` or
    /// `fallback`.
    pub fn label(&self) -> &'static str {
        match self {
            Origin::Named => "named",
            Origin::Calibrated => "calibrated",
            Origin::Cached => "cached",
            Origin::Fallback(_) => "fallback",
        }
    }
}

/// The device-dependent numbers of the MSM plan (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceProfile {
    /// `h200`, `h100`, `swiftshader`, `lavapipe`, `portable`, or `calibrated`.
    pub name: String,
    /// Where the numbers come from: a name, a calibration now or cached, or a fallback (and why).
    pub origin: Origin,
    /// The adapter a calibration ran on (`AdapterInfo` name, backend and driver); for a named
    /// profile, the GPU it describes.
    pub device: String,
    /// SMVP invocations the device keeps running at once, by the kernel's limb count: pairs
    /// `(limbs, invocations)` in ascending order of limbs. A kernel of `l` limbs takes the first
    /// pair with `limbs ≥ l`, else the last (bigger kernels hold more registers, so fewer of them
    /// fit at once). The plan sizes each batch's SMVP chunks to one such wave.
    pub smvp_wave: Vec<(u32, u32)>,
    /// Whether the 64-bit limb products (29/30-bit limbs) beat the 32-bit-only widths here. An
    /// adapter may offer `SHADER_INT64` and still emulate the multiply.
    pub fast_int64: bool,
    /// The limb width among the portable ones (32-bit integers only) this device prefers.
    pub portable_limb_bits: u32,
    /// Invocations the bucket reduction aims for across all windows.
    pub reduction_threads: u32,
    /// The same with 64-bit products, whose smaller reduction kernel fits more at once; a window
    /// segment keeps at least `min_segment_buckets` buckets under this budget.
    pub reduction_threads_int64: u32,
    /// Fewest buckets per reduction segment for the 64-bit budget to apply
    /// ([`crate::msm::reduction_segments`]).
    pub min_segment_buckets: u32,
    /// From this many points the input goes in batches by default, so that the host's copy of
    /// one overlaps the GPU's work on the one before (`None`: never). Natively two, a quarter and
    /// then the rest (an eighth and three more from four times this size); in a page with the
    /// pipelined upload ([`crate::msm::UploadPath::Pipelined`]), whose copy is slower, four equal
    /// ones ([`crate::msm::Plan`]).
    pub two_batches_from: Option<usize>,
    /// Bounds on the default SMVP chunk K (entries per invocation).
    pub chunk_range: (u32, u32),
    /// How much of the WGSL the host unrolls: fast kernels for GPU compilers that keep named
    /// limbs in registers, compact ones for compilers that choke on the unrolled size.
    pub kernel_form: KernelForm,
    /// Point additions per second the device completes when its SMVP wave is full, for kernels
    /// of [`REFERENCE_LIMBS`] limbs (others scale with the inverse square of the limb count, as
    /// the product does): what the plan estimates each submission's time from, to keep it within
    /// [`crate::msm::RunOptions::max_submission_seconds`] ([`crate::msm::submit`]).
    pub additions_per_second: f64,
    /// Bind no buffer larger than this, below the device's own limit (`mobile`: WebGPU's
    /// default 128 MiB, so that any device plans as a phone would); `None`: the device's.
    pub binding_limit: Option<u64>,
    /// What a calibration measured (rates, probe times), kept for display; the plan ignores it.
    pub measurements: Value,
}

/// The names [`DeviceProfile::named`] accepts.
pub const NAMES: [&str; 6] = [
    "h200",
    "h100",
    "swiftshader",
    "lavapipe",
    "portable",
    "mobile",
];

/// Words in an adapter's name or driver (lower case) that mark a phone's GPU:
/// Qualcomm's Adreno, Arm's Mali, Imagination's PowerVR.
pub const MOBILE_NAMES: [&str; 6] = [
    "adreno",
    "qualcomm",
    "mali",
    "arm",
    "powervr",
    "imagination",
];

/// Whether `names` (an adapter's name and driver, lower case) has a word of
/// [`MOBILE_NAMES`] ("Adreno (TM) 740", "Mali-G715").
pub fn is_mobile(names: &str) -> bool {
    names
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| MOBILE_NAMES.contains(&word))
}

/// The limb count [`DeviceProfile::additions_per_second`] is given for: BLS12's base field at
/// 15-bit limbs, the widest kernel the browsers run.
pub const REFERENCE_LIMBS: u32 = 26;

/// NVIDIA Hopper: 132 SMs in the H200 and in the H100 SXM5 (80 GB HBM3) part, per NVIDIA's H100
/// architecture white paper; warps per SM the SMVP kernel's registers allow there (from its
/// pipeline statistics, benches/experiments.json, "SMVP wave"), 32 invocations per warp.
fn hopper_wave() -> Vec<(u32, u32)> {
    const SMS: u32 = 132;
    vec![
        (9, SMS * 16 * 32),
        (13, SMS * 12 * 32),
        (u32::MAX, SMS * 8 * 32),
    ]
}

impl DeviceProfile {
    /// The safe default for a device nothing is known about: portable 15-bit limbs (no reliance on
    /// 64-bit integers, which many GPUs emulate), a mid-sized wave, the generic batch rules.
    pub fn portable() -> Self {
        Self {
            name: "portable".into(),
            origin: Origin::Named,
            device: "any".into(),
            // Between a laptop GPU (a few thousand invocations at once) and a data-centre one
            // (tens of thousands): a wrong guess costs speed, never correctness.
            smvp_wave: vec![(u32::MAX, 1 << 14)],
            fast_int64: false,
            portable_limb_bits: 15,
            reduction_threads: 1 << 14,
            reduction_threads_int64: 1 << 14,
            min_segment_buckets: 8,
            two_batches_from: Some(1 << 20),
            chunk_range: (16, 4096),
            kernel_form: KernelForm::Unrolled,
            // An unknown GPU of desktop class (a low-end discrete or a recent integrated one),
            // about thirty times below the H100's rate; on a slower one a submission overruns
            // its bound by as much, which desktop drivers preempt rather than reset.
            additions_per_second: 1.0e7,
            binding_limit: None,
            measurements: Value::Null,
        }
    }

    /// A phone's GPU (Adreno, Mali, PowerVR) as the WebGPU page sees it: WebGPU's default limits
    /// (128 MiB per binding), the compact product (a mobile shader compiler's time grows with
    /// the unrolled kernels' size as a browser's does), a wave of 2 048 invocations (a few
    /// shader cores, each holding a few hundred of these register-heavy invocations) and a
    /// conservative addition rate, a few hundred times below the H100's: such GPUs run
    /// integer multiplies at a fraction of their float rate, and their driver resets the
    /// device when one submission runs for about two seconds, so the plan cuts the MSM into
    /// submissions of half a second at this rate.
    pub fn mobile() -> Self {
        Self {
            name: "mobile".into(),
            device: "a phone's GPU (Adreno, Mali, PowerVR)".into(),
            smvp_wave: vec![(u32::MAX, 2048)],
            reduction_threads: 1 << 11,
            reduction_threads_int64: 1 << 11,
            two_batches_from: None,
            kernel_form: KernelForm::Compact,
            additions_per_second: 1.0e6,
            binding_limit: Some(wgpu::Limits::defaults().max_storage_buffer_binding_size),
            ..Self::portable()
        }
    }

    /// The plan tuned on the NVIDIA H200 (benches/experiments.json and the book's results
    /// chapter): the three wave sizes above; 29/30-bit limbs; a reduction budget of 36 Ki
    /// invocations with 64-bit products (about one wave of that kernel); two batches from 2^20
    /// points; K at most 4 096 (one wave of a 3·2^20-point batch at the portable widths needs
    /// fewer).
    pub fn h200() -> Self {
        Self {
            name: "h200".into(),
            device: "NVIDIA H200".into(),
            smvp_wave: hopper_wave(),
            fast_int64: true,
            reduction_threads_int64: 36 << 10,
            // BLS12-377 at 2^20 points, 15-bit limbs (26), on the H100 in Chromium: the SMVP's
            // 33 792 invocations of K = 528 entries took 53.5 ms (benches/results/
            // gpu-msm-browser-upload-chromium-153-nvidia-h100-80gb-hbm3.json), 3.3e8 additions
            // per second; rounded down.
            additions_per_second: 3.0e8,
            ..Self::portable()
        }
    }

    /// The H100 SXM5: the same SMs, count and register file as the H200 (less memory bandwidth),
    /// so the same numbers; not tuned separately.
    pub fn h100() -> Self {
        Self {
            name: "h100".into(),
            device: "NVIDIA H100 80GB HBM3".into(),
            ..Self::h200()
        }
    }

    /// Chromium's software adapter (SwiftShader): WebGPU on the CPU, no 64-bit integers, a few
    /// hundred invocations in flight (the CPU's threads times its SIMD lanes); its LLVM back end
    /// gives up on the unrolled BLS12 kernels, so the compact form.
    pub fn swiftshader() -> Self {
        Self {
            name: "swiftshader".into(),
            device: "SwiftShader (Chromium's software WebGPU adapter)".into(),
            smvp_wave: vec![(u32::MAX, 256)],
            kernel_form: KernelForm::Compact,
            ..Self::portable()
        }
    }

    /// Mesa's lavapipe (Vulkan on the CPU, the test adapter here and in CI): 64-bit integers are
    /// native on a CPU; few invocations at once.
    pub fn lavapipe() -> Self {
        Self {
            name: "lavapipe".into(),
            device: "llvmpipe (Mesa lavapipe, Vulkan on the CPU)".into(),
            smvp_wave: vec![(u32::MAX, 256)],
            fast_int64: true,
            ..Self::portable()
        }
    }

    /// A named profile, or an error listing the names.
    pub fn named(name: &str) -> Result<Self, GpuError> {
        Ok(match name {
            "h200" => Self::h200(),
            "h100" => Self::h100(),
            "swiftshader" => Self::swiftshader(),
            "lavapipe" => Self::lavapipe(),
            "portable" => Self::portable(),
            "mobile" => Self::mobile(),
            other => {
                return Err(GpuError::Input(format!(
                    "unknown device profile {other:?}: one of {NAMES:?}"
                )));
            }
        })
    }

    /// The named profile for this adapter: `h200` and `h100` by name, `lavapipe` for Mesa's
    /// llvmpipe, `swiftshader` for Chromium's software adapter (or any CPU fallback adapter in a
    /// browser), `mobile` for the phone GPUs' names ([`MOBILE_NAMES`]), else `portable`. In a browser the kernels are compact whatever the profile: a
    /// browser's shader compiler takes minutes over the straight-line BLS12 kernels where it takes
    /// seconds over the compact ones (SwiftShader's gives up on them), and natively the same
    /// kernels build in about a second.
    pub fn for_adapter(info: &wgpu::AdapterInfo) -> Self {
        let names = format!("{} {} {}", info.name, info.driver, info.driver_info).to_lowercase();
        let browser = info.backend == wgpu::Backend::BrowserWebGpu;
        let mut profile = if names.contains("h200") {
            Self::h200()
        } else if names.contains("h100") {
            Self::h100()
        } else if names.contains("llvmpipe") {
            Self::lavapipe()
        } else if names.contains("swiftshader")
            || (browser && info.device_type == wgpu::DeviceType::Cpu)
        {
            Self::swiftshader()
        } else if is_mobile(&names) {
            Self::mobile()
        } else {
            Self::portable()
        };
        if browser {
            profile.kernel_form = KernelForm::Compact;
        }
        profile
    }

    /// `portable`, standing in for a calibration that did not happen, with the reason.
    pub fn fallback(reason: impl Into<String>) -> Self {
        Self {
            origin: Origin::Fallback(reason.into()),
            ..Self::portable()
        }
    }

    /// Point additions per second for a kernel of `limbs` limbs: the profile's rate scaled by
    /// (REFERENCE_LIMBS / limbs)², the product's cost.
    pub fn additions_per_second(&self, limbs: usize) -> f64 {
        let scale = REFERENCE_LIMBS as f64 / limbs.max(1) as f64;
        self.additions_per_second * scale * scale
    }

    /// SMVP invocations the device runs at once for a kernel of `limbs` limbs.
    pub fn smvp_wave(&self, limbs: usize) -> usize {
        let l = u32::try_from(limbs).unwrap_or(u32::MAX);
        let pick = self.smvp_wave.iter().find(|(upto, _)| *upto >= l);
        pick.or(self.smvp_wave.last()).map_or(1, |&(_, v)| v.max(1)) as usize
    }

    /// Records a measured wave for kernels of `limbs` limbs, keeping the pairs ordered.
    pub fn set_smvp_wave(&mut self, limbs: usize, invocations: u32) {
        let l = limbs as u32;
        self.smvp_wave.retain(|(upto, _)| *upto != l);
        self.smvp_wave.push((l, invocations.max(1)));
        self.smvp_wave.sort_unstable();
    }

    /// Whether the wave for kernels of exactly `limbs` limbs was measured (or named).
    pub fn has_smvp_wave(&self, limbs: usize) -> bool {
        self.smvp_wave
            .iter()
            .any(|(upto, _)| *upto as usize == limbs)
    }

    /// The limb width for `field` on this device: the 64-bit width where the profile finds those
    /// products fast and the device offers them, else the preferred portable width.
    pub fn limb_bits(&self, ctx: &GpuContext, field: Field) -> u32 {
        self.limb_bits_with(ctx.features.contains(wgpu::Features::SHADER_INT64), field)
    }

    /// As [`DeviceProfile::limb_bits`], given whether the device has 64-bit integers in shaders.
    pub fn limb_bits_with(&self, shader_int64: bool, field: Field) -> u32 {
        if self.fast_int64 && shader_int64 {
            crate::field::radix64_limb_bits(field)
        } else {
            self.portable_limb_bits
        }
    }

    /// One line for people: name, origin and the numbers that shape the plan.
    pub fn summary(&self) -> String {
        let waves: Vec<String> = self
            .smvp_wave
            .iter()
            .map(|&(l, v)| {
                if l == u32::MAX {
                    format!("{v} (larger kernels)")
                } else {
                    format!("{v} (≤ {l} limbs)")
                }
            })
            .collect();
        let why = match &self.origin {
            Origin::Fallback(reason) => format!(": {reason}"),
            _ => String::new(),
        };
        format!(
            "{} ({}{why}) on {}: SMVP invocations at once {}; 64-bit products {}; portable limbs {} bits; {} kernels",
            self.name,
            self.origin.label(),
            self.device,
            waves.join(", "),
            if self.fast_int64 { "fast" } else { "not used" },
            self.portable_limb_bits,
            self.kernel_form.name()
        )
    }

    /// The profile as JSON: the entry of the native cache file and of the widget's
    /// `localStorage`, read back by [`DeviceProfile::from_json`].
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "origin": self.origin.label(),
            "fallback_reason": match &self.origin { Origin::Fallback(r) => Value::from(r.as_str()), _ => Value::Null },
            "device": self.device,
            "smvp_wave": self.smvp_wave.iter().map(|&(l, v)| json!({
                "limbs": if l == u32::MAX { Value::Null } else { Value::from(l) }, "invocations": v,
            })).collect::<Vec<_>>(),
            "fast_int64": self.fast_int64,
            "portable_limb_bits": self.portable_limb_bits,
            "reduction_threads": self.reduction_threads,
            "reduction_threads_int64": self.reduction_threads_int64,
            "min_segment_buckets": self.min_segment_buckets,
            "two_batches_from": self.two_batches_from,
            "chunk_range": [self.chunk_range.0, self.chunk_range.1],
            "kernel_form": self.kernel_form.name(),
            "additions_per_second": self.additions_per_second,
            "binding_limit": self.binding_limit,
            "measurements": self.measurements,
        })
    }

    /// As [`DeviceProfile::from_json`], from text.
    pub fn from_json_text(text: &str) -> Result<Self, GpuError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| GpuError::Input(format!("device profile: not JSON: {e}")))?;
        Self::from_json(&v)
    }

    /// Reads [`DeviceProfile::to_json`]'s form back, naming the first field that is missing or wrong.
    pub fn from_json(v: &Value) -> Result<Self, GpuError> {
        let bad = |what: &str| GpuError::Input(format!("device profile: {what}"));
        let uint = |key: &str| -> Result<u64, GpuError> {
            v.get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(&format!("\"{key}\" must be a whole number")))
        };
        let u32_of = |key: &str| -> Result<u32, GpuError> {
            u32::try_from(uint(key)?).map_err(|_| bad(&format!("\"{key}\" is too large")))
        };
        let text = |key: &str| -> Result<String, GpuError> {
            v.get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| bad(&format!("\"{key}\" must be a string")))
        };
        let origin = match text("origin")?.as_str() {
            "named" => Origin::Named,
            "calibrated" => Origin::Calibrated,
            "cached" => Origin::Cached,
            "fallback" => Origin::Fallback(
                v.get("fallback_reason")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown")
                    .to_string(),
            ),
            other => return Err(bad(&format!("unknown origin {other:?}"))),
        };
        let waves = v
            .get("smvp_wave")
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| bad("\"smvp_wave\" must be a non-empty list"))?;
        let mut smvp_wave = Vec::new();
        for w in waves {
            let limbs = match w.get("limbs") {
                Some(Value::Null) => u32::MAX,
                l => l
                    .and_then(Value::as_u64)
                    .and_then(|l| u32::try_from(l).ok())
                    .ok_or_else(|| {
                        bad("a \"smvp_wave\" entry needs \"limbs\" (a number or null)")
                    })?,
            };
            let invocations = w
                .get("invocations")
                .and_then(Value::as_u64)
                .and_then(|i| u32::try_from(i).ok())
                .filter(|&i| i > 0)
                .ok_or_else(|| bad("a \"smvp_wave\" entry needs \"invocations\" ≥ 1"))?;
            smvp_wave.push((limbs, invocations));
        }
        smvp_wave.sort_unstable();
        let portable_limb_bits = u32_of("portable_limb_bits")?;
        if !crate::field::LIMB_WIDTHS.contains(&portable_limb_bits) {
            return Err(bad(&format!(
                "portable_limb_bits {portable_limb_bits}: one of {:?}",
                crate::field::LIMB_WIDTHS
            )));
        }
        let range = v
            .get("chunk_range")
            .and_then(Value::as_array)
            .and_then(|a| match a.as_slice() {
                [lo, hi] => Some((lo.as_u64()?, hi.as_u64()?)),
                _ => None,
            })
            .filter(|&(lo, hi)| lo >= 2 && lo <= hi && hi <= u32::MAX as u64)
            .ok_or_else(|| bad("\"chunk_range\" must be [low, high] with 2 ≤ low ≤ high"))?;
        let two_batches_from = match v.get("two_batches_from") {
            Some(Value::Null) => None,
            _ => Some(uint("two_batches_from")? as usize),
        };
        Ok(Self {
            name: text("name")?,
            origin,
            device: text("device")?,
            smvp_wave,
            fast_int64: v
                .get("fast_int64")
                .and_then(Value::as_bool)
                .ok_or_else(|| bad("\"fast_int64\" must be true or false"))?,
            portable_limb_bits,
            reduction_threads: u32_of("reduction_threads")?.max(1),
            reduction_threads_int64: u32_of("reduction_threads_int64")?.max(1),
            min_segment_buckets: u32_of("min_segment_buckets")?.max(1),
            two_batches_from,
            chunk_range: (range.0 as u32, range.1 as u32),
            // Absent in profiles cached before the forms existed: those ran unrolled.
            kernel_form: match v.get("kernel_form") {
                None | Some(Value::Null) => KernelForm::Unrolled,
                Some(f) => f
                    .as_str()
                    .and_then(KernelForm::parse)
                    .ok_or_else(|| bad("\"kernel_form\" must be \"unrolled\" or \"compact\""))?,
            },
            // Absent in profiles cached before the submission bound: the portable rate.
            additions_per_second: match v.get("additions_per_second") {
                None | Some(Value::Null) => Self::portable().additions_per_second,
                Some(r) => r
                    .as_f64()
                    .filter(|r| r.is_finite() && *r > 0.0)
                    .ok_or_else(|| bad("\"additions_per_second\" must be a positive number"))?,
            },
            binding_limit: match v.get("binding_limit") {
                None | Some(Value::Null) => None,
                Some(b) => Some(
                    b.as_u64()
                        .filter(|&b| b >= 1 << 20)
                        .ok_or_else(|| bad("\"binding_limit\" must be null or at least 1 MiB"))?,
                ),
            },
            measurements: v.get("measurements").cloned().unwrap_or(Value::Null),
        })
    }
}
