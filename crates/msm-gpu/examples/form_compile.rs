//! Compile time of the MSM pipelines per kernel form (an experiment; not part of the library).
//!
//! usage: form_compile CURVE LIMB_BITS unrolled|compact
use fastmsm_gpu::mont_wgsl::KernelForm;
use fastmsm_gpu::msm::{GpuCurve, GpuMsm, ProfileChoice};
use fastmsm_gpu::testing::block_on;

fn main() {
    let ctx = block_on(fastmsm_gpu::GpuContext::new()).unwrap();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let curve = GpuCurve::from_name(&args[0]).unwrap();
    let bits: u32 = args[1].parse().unwrap();
    let form = KernelForm::parse(&args[2]).unwrap();
    let t = std::time::Instant::now();
    let builder = GpuMsm::builder(curve)
        .limb_bits(bits)
        .kernel_form(form)
        .profile(ProfileChoice::Named("portable".into()));
    let m = block_on(builder.build(&ctx)).unwrap();
    println!(
        "{} {bits} {}: {:.1} s",
        curve.name(),
        form.name(),
        t.elapsed().as_secs_f64()
    );
    drop(m);
}
