//! Compile time of the MSM pipelines per kernel form (an experiment; not part of the library).
use fastmsm_gpu::mont_wgsl::KernelForm;
use fastmsm_gpu::msm::{GpuCurve, GpuMsm};
use fastmsm_gpu::testing::block_on;

fn main() {
    let ctx = block_on(fastmsm_gpu::GpuContext::new()).unwrap();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let curve = GpuCurve::from_name(&args[0]).unwrap();
    let bits: u32 = args[1].parse().unwrap();
    let form = KernelForm::parse(&args[2]).unwrap();
    let t = std::time::Instant::now();
    let m = block_on(GpuMsm::with_form(&ctx, curve, bits, form)).unwrap();
    println!(
        "{} {bits} {}: {:.1} s",
        curve.name(),
        form.name(),
        t.elapsed().as_secs_f64()
    );
    drop(m);
}
