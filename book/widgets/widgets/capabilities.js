// "What can my browser do?" — the GPU adapter as wgpu (compiled to WASM) sees it, cross-checked
// against the browser's own GPUAdapter, plus WebAssembly feature probes.
import { wasmFeatures } from '../core/features.js';
import { webgpuAdapter } from '../core/gpu.js';

export const title = 'What can my browser do?';
export const controls = [];
export const autorun = true;
export const quick = {};

/** @param {import('../core/types.js').Wasm} wasm */
export async function task(wasm, _params, progress) {
  progress(0.1, 'Asking wgpu (in WebAssembly) for the adapter…');
  const fromWasm = await wasm.gpu_capabilities();
  progress(0.6, 'Reading the GPUAdapter directly…');
  const direct = await webgpuAdapter();
  /** @type {Record<string, any>} */
  const features = { webgpu: fromWasm.webgpu, ...wasmFeatures() };
  const device = { name: 'no WebGPU adapter', backend: 'none' };
  const results = [];
  let verified = fromWasm.webgpu === !!direct;
  if (fromWasm.webgpu && direct) {
    const a = fromWasm.adapter;
    const info = direct.info ?? {};
    device.name = a.name || [info.vendor, info.architecture, info.device].filter(Boolean).join(' ') || 'unnamed adapter';
    device.backend = 'WebGPU';
    features.adapter_vendor = info.vendor ?? '';
    features.adapter_architecture = info.architecture ?? '';
    features.fallback_adapter = a.device_type === 'Cpu';
    features.subgroups = direct.features.has('subgroups');
    features.subgroup_sizes = a.subgroup_min_size ? `${a.subgroup_min_size}–${a.subgroup_max_size}` : 'not reported';
    features.shader_f16 = a.shader_f16;
    features.timestamp_query = a.timestamp_query;
    verified = verified && a.shader_f16 === direct.features.has('shader-f16')
      && a.timestamp_query === direct.features.has('timestamp-query');
    for (const limit of a.limits) {
      const browserValue = direct.limits[limit.name];
      results.push({
        name: limit.name,
        params: { webgpu_default: limit.webgpu_default, browser_value: browserValue },
        unit: /Size$/.test(limit.name) && !/Workgroup(Size|s)/.test(limit.name) ? 'bytes' : 'count',
        median: limit.value, min: limit.value, max: limit.value, samples: 1,
        verified: browserValue === limit.value,
      });
    }
  } else if (fromWasm.error) {
    features.webgpu_error = fromWasm.error;
  }
  progress(1, 'Done');
  return { suite: 'capabilities', device, features, results, verified: verified && results.every((r) => r.verified) };
}

const yesNo = (v) => (v === true ? 'yes' : v === false ? 'no' : String(v));

export function view(result) {
  const f = result.features;
  const featureRows = [
    ['WebGPU adapter', f.webgpu ? `yes — ${result.device.name}` : `no${f.webgpu_error ? ` (${f.webgpu_error})` : ''}`],
    ...(f.webgpu ? [
      ['Software (fallback) adapter', yesNo(f.fallback_adapter)],
      ['Subgroups', yesNo(f.subgroups)],
      ['Subgroup sizes', f.subgroup_sizes],
      ['shader-f16', yesNo(f.shader_f16)],
      ['Timestamp queries', yesNo(f.timestamp_query)],
    ] : []),
    ['WASM SIMD128', yesNo(f.simd128)],
    ['WASM relaxed SIMD', yesNo(f.relaxed_simd)],
    ['WASM shared memory', yesNo(f.shared_memory)],
    ['crossOriginIsolated (needed for threads)', yesNo(f.cross_origin_isolated)],
    ['Logical CPU cores', f.hardware_concurrency ?? 'unknown'],
  ];
  const tables = [{ caption: 'Features', columns: ['Feature', 'Available'], rows: featureRows }];
  if (result.results.length) {
    tables.push({
      caption: 'Adapter limits that matter for MSM',
      columns: ['Limit', 'Adapter (via wgpu)', 'WebGPU default', '× default', 'Verified'],
      rows: result.results.map((r) => [r.name, r.median.toLocaleString('en'), r.params.webgpu_default.toLocaleString('en'),
        (r.median / r.params.webgpu_default).toFixed(2), r.verified ? '✔' : `✘ browser says ${r.params.browser_value}`]),
    });
  }
  return {
    message: f.webgpu ? null : 'This browser exposes no WebGPU adapter: the GPU widgets will not run here, the WASM (CPU) widgets will.',
    tables,
    chart: {
      title: 'How far each limit exceeds the WebGPU default',
      labels: result.results.map((r) => r.name),
      series: [{ label: 'log₂(adapter ÷ default)', data: result.results.map((r) => Math.log2(r.median / r.params.webgpu_default)) }],
      yLabel: 'doublings over the default',
    },
  };
}
