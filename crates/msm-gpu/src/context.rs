//! Finding an adapter and opening a device, the same way natively and in the browser.

use crate::GpuError;

/// A device and its queue, plus what the adapter said about itself.
pub struct GpuContext {
    /// The open device: every buffer, pipeline and bind group is created on it.
    pub device: wgpu::Device,
    /// The device's queue: command buffers and buffer writes go through it.
    pub queue: wgpu::Queue,
    /// The adapter's name, vendor, backend and driver, for reports and for naming results.
    pub info: wgpu::AdapterInfo,
    /// The limits the device was opened with (the adapter's own, or WebGPU's defaults:
    /// [`DeviceLimits`]), which bound buffer sizes and dispatch shapes.
    pub limits: wgpu::Limits,
    /// The optional features enabled on the device (those asked for that the adapter offers).
    pub features: wgpu::Features,
    /// The most loop iterations one invocation runs, all of its loops together, where the
    /// implementation stops loops short (Mesa's llvmpipe: 65535), measured when the device opens
    /// (`shaders/loop_probe.wgsl`); `None` where no such limit showed. The MSM's plan keeps every
    /// kernel within it.
    pub loop_limit: Option<u32>,
    /// Why the device was lost, once it has been (a browser loses every device when its GPU
    /// process stops; `destroy` loses it on purpose).
    lost: std::sync::Arc<std::sync::Mutex<Option<String>>>,
}

/// What an adapter offers that matters for MSM: its identity, the limits that bound buffer sizes
/// and workgroup shapes, and the optional features the pipeline can use.
#[derive(Clone, Debug)]
pub struct AdapterReport {
    /// The adapter's name as the driver gives it.
    pub name: String,
    /// The wgpu backend behind it (`Vulkan`, `Metal`, `Dx12`, `Gl`, `BrowserWebGpu`).
    pub backend: String,
    /// Discrete, integrated, virtual or CPU (lavapipe and SwiftShader report `Cpu`).
    pub device_type: String,
    /// Driver name and version, where the backend reports them.
    pub driver: String,
    /// (WebGPU limit name, adapter value, WebGPU default)
    pub limits: Vec<(&'static str, u64, u64)>,
    /// Smallest and largest subgroup size the adapter reports.
    pub subgroup_sizes: (u32, u32),
    /// Whether the adapter offers `f16` in shaders.
    pub shader_f16: bool,
    /// Whether it offers timestamp queries, which the MSM uses to time its stages on the GPU.
    pub timestamp_query: bool,
    /// Whether it offers 64-bit integers in shaders, which the native field arithmetic with 29- to
    /// 32-bit limbs needs (browsers do not offer them).
    pub shader_int64: bool,
}

/// The limits a device is opened with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeviceLimits {
    /// The adapter's own limits: the largest bindings and buffers it offers, so that large MSMs
    /// run in few batches.
    #[default]
    Adapter,
    /// WebGPU's default limits only, whatever the adapter offers ([`wgpu::Limits::defaults`]:
    /// 128 MiB per binding, 256 MiB per buffer, 8 storage buffers per shader stage, 16 KiB of
    /// workgroup storage, 256 invocations per workgroup): what every WebGPU device has, a
    /// phone's included. The MSM batches its points to fit them.
    WebGpuDefault,
}

impl DeviceLimits {
    /// `adapter` or `default`, as the CLI, the widgets and the npm package spell it.
    pub fn name(self) -> &'static str {
        match self {
            DeviceLimits::Adapter => "adapter",
            DeviceLimits::WebGpuDefault => "default",
        }
    }

    /// The limits of that name ([`DeviceLimits::name`]), or an error listing the names.
    pub fn parse(name: &str) -> Result<Self, GpuError> {
        match name {
            "adapter" | "" => Ok(DeviceLimits::Adapter),
            "default" => Ok(DeviceLimits::WebGpuDefault),
            other => Err(GpuError::Input(format!(
                "device limits {other:?}: adapter (the adapter's own) or default (WebGPU's defaults)"
            ))),
        }
    }

    /// What to ask the device for, given the adapter's limits.
    fn request(self, adapter: wgpu::Limits) -> wgpu::Limits {
        match self {
            DeviceLimits::Adapter => adapter,
            DeviceLimits::WebGpuDefault => wgpu::Limits::defaults(),
        }
    }
}

impl GpuContext {
    /// Opens the best adapter available (high-performance preference) with the adapter's own limits,
    /// so large MSMs can use big buffers where the hardware allows.
    pub async fn new() -> Result<Self, GpuError> {
        Self::open(DeviceLimits::Adapter, Self::OPTIONAL_FEATURES).await
    }

    /// Optional features the MSM uses where the adapter has them: stage timestamps, and 64-bit
    /// integers for the native field arithmetic (29- to 32-bit limbs).
    pub const OPTIONAL_FEATURES: wgpu::Features =
        wgpu::Features::TIMESTAMP_QUERY.union(wgpu::Features::SHADER_INT64);

    /// As [`GpuContext::new`], enabling only those of `optional` that the adapter offers (tests
    /// use it to open a device without SHADER_INT64, as a browser's is).
    pub async fn with_optional_features(optional: wgpu::Features) -> Result<Self, GpuError> {
        Self::open(DeviceLimits::Adapter, optional).await
    }

    /// Opens the best adapter with `limits` ([`DeviceLimits::WebGpuDefault`]: only what every
    /// WebGPU device offers), enabling those of `optional` that the adapter offers.
    pub async fn open(limits: DeviceLimits, optional: wgpu::Features) -> Result<Self, GpuError> {
        let adapter = request_adapter().await?;
        let info = adapter.get_info();
        let limits = limits.request(adapter.limits());
        let features = adapter.features() & optional;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("fastmsm"),
                required_features: features,
                required_limits: limits.clone(),
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| GpuError::RequestDevice(e.to_string()))?;
        // A lost device otherwise surfaces only as zeros read back; say so where it happens.
        let lost = std::sync::Arc::new(std::sync::Mutex::new(None));
        let record = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            if reason != wgpu::DeviceLostReason::Destroyed {
                eprintln!("fastmsm-gpu: the GPU device was lost ({reason:?}): {message}");
            }
            let why = format!(
                "{reason:?}{}",
                if message.is_empty() {
                    String::new()
                } else {
                    format!(": {message}")
                }
            );
            *record.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
        });
        let mut ctx = Self {
            device,
            queue,
            info,
            limits,
            features,
            loop_limit: None,
            lost,
        };
        ctx.loop_limit = probe_loop_limit(&ctx).await?;
        Ok(ctx)
    }

    /// Why the device was lost, if it was: work on it fails from then on, and only a new
    /// [`GpuContext`] recovers.
    pub fn lost(&self) -> Option<String> {
        self.lost.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// What this device's adapter offers, in the form the capability widget and the CLI print.
    pub fn report(&self) -> AdapterReport {
        AdapterReport::new(&self.info, &self.limits, self.features)
    }
}

/// Iterations the loop-limit probe asks for: more than any MSM kernel's loops run in one invocation
/// on the plans a device without a limit gets, and a few milliseconds of one GPU thread.
const LOOP_PROBE_ITERATIONS: u32 = 1 << 22;

/// Runs `shaders/loop_probe.wgsl` once: the iterations it completed, where fewer than asked.
async fn probe_loop_limit(ctx: &GpuContext) -> Result<Option<u32>, GpuError> {
    use wgpu::util::DeviceExt;
    let module = ctx
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("loop_probe"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../shaders/loop_probe.wgsl").into()),
        });
    let pipeline = ctx
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("loop_probe"),
            layout: None,
            module: &module,
            entry_point: Some("count_iterations"),
            compilation_options: Default::default(),
            cache: None,
        });
    let counter = ctx
        .device
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("loop_probe"),
            contents: bytemuck::cast_slice(&[LOOP_PROBE_ITERATIONS, 0]),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        });
    let group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("loop_probe"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: counter.as_entire_binding(),
        }],
    });
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    ctx.queue.submit([encoder.finish()]);
    let run = crate::transfer::read_u32(ctx, &counter, 2).await?[1];
    Ok((run < LOOP_PROBE_ITERATIONS).then_some(run))
}

async fn request_adapter() -> Result<wgpu::Adapter, GpuError> {
    // Primary backends (Vulkan, Metal, DX12, WebGPU) first; OpenGL only if none of them has an
    // adapter (probing GL needs a display server and prints errors on headless machines).
    // WGPU_BACKEND in the environment still overrides both.
    let mut last_error = String::new();
    for backends in [wgpu::Backends::PRIMARY, wgpu::Backends::all()] {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc.with_env());
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            apply_limit_buckets: false,
        };
        match instance.request_adapter(&options).await {
            Ok(adapter) => return Ok(adapter),
            Err(e) => last_error = e.to_string(),
        }
    }
    Err(GpuError::NoAdapter(last_error))
}

/// Describes the adapter without opening a device (used by the "What can my browser do?" widget).
pub async fn probe() -> Result<AdapterReport, GpuError> {
    let adapter = request_adapter().await?;
    Ok(AdapterReport::new(
        &adapter.get_info(),
        &adapter.limits(),
        adapter.features(),
    ))
}

impl AdapterReport {
    fn new(info: &wgpu::AdapterInfo, limits: &wgpu::Limits, features: wgpu::Features) -> Self {
        let d = wgpu::Limits::default();
        let limits = vec![
            (
                "maxStorageBufferBindingSize",
                limits.max_storage_buffer_binding_size,
                d.max_storage_buffer_binding_size,
            ),
            ("maxBufferSize", limits.max_buffer_size, d.max_buffer_size),
            (
                "maxStorageBuffersPerShaderStage",
                limits.max_storage_buffers_per_shader_stage.into(),
                d.max_storage_buffers_per_shader_stage.into(),
            ),
            (
                "maxComputeWorkgroupSizeX",
                limits.max_compute_workgroup_size_x.into(),
                d.max_compute_workgroup_size_x.into(),
            ),
            (
                "maxComputeInvocationsPerWorkgroup",
                limits.max_compute_invocations_per_workgroup.into(),
                d.max_compute_invocations_per_workgroup.into(),
            ),
            (
                "maxComputeWorkgroupsPerDimension",
                limits.max_compute_workgroups_per_dimension.into(),
                d.max_compute_workgroups_per_dimension.into(),
            ),
            (
                "maxComputeWorkgroupStorageSize",
                limits.max_compute_workgroup_storage_size.into(),
                d.max_compute_workgroup_storage_size.into(),
            ),
        ];
        Self {
            name: info.name.clone(),
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            driver: format!("{} {}", info.driver, info.driver_info)
                .trim()
                .to_string(),
            limits,
            subgroup_sizes: (info.subgroup_min_size, info.subgroup_max_size),
            shader_f16: features.contains(wgpu::Features::SHADER_F16),
            timestamp_query: features.contains(wgpu::Features::TIMESTAMP_QUERY),
            shader_int64: features.contains(wgpu::Features::SHADER_INT64),
        }
    }
}
