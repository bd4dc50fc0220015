//! Compiles cuda/ (sppark's MSM behind a C interface: one translation unit per curve, one for the
//! device) with nvcc for sm_90a and sm_90 and
//! links it with the CUDA runtime and libstdc++ both static, so the binary needs only the NVIDIA
//! driver where it runs. Expects nvcc from build.sh (NVCC_PATH, or CUDA_PATH/bin/nvcc).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn var(name: &str) -> Option<String> {
    println!("cargo:rerun-if-env-changed={name}");
    env::var(name).ok().filter(|v| !v.is_empty())
}

fn main() {
    println!("cargo:rerun-if-changed=cuda");
    // build.sh sets NVCC=off so that the sppark crate's own build script compiles nothing (its
    // GPU table is compiled here, into the harness); our compiler comes in as NVCC_PATH.
    let nvcc = var("NVCC_PATH")
        .map(PathBuf::from)
        .or_else(|| var("CUDA_PATH").map(|c| Path::new(&c).join("bin/nvcc")))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!("no nvcc: run benches/sppark/build.sh, which installs it and sets NVCC_PATH")
        });
    let cuda_lib = nvcc.parent().unwrap().join("../lib");
    let sppark_root =
        env::var("DEP_SPPARK_ROOT").expect("the sppark crate did not say where its sources are");
    let blst_src =
        env::var("DEP_BLST_C_SRC").expect("the blst crate did not say where its sources are");

    // cc takes nvcc from NVCC; this process's own copy of the variable, not the sppark crate's.
    // SAFETY: the build script is single-threaded.
    unsafe { env::set_var("NVCC", &nvcc) };
    // One library per translation unit: with several CUDA files in one build, cc compiles
    // relocatable device code and links it, where sppark's headers expect one program per file.
    // The device file last: the curves' objects call into it.
    for unit in ["bls12_377", "bls12_381", "bn254", "device"] {
        cc::Build::new()
            .cuda(true)
            // cudart_static is named below, once, after every library that needs it.
            .cudart("none")
            // libstdc++ linked statically below: the GPU machine is not known to have a C++ runtime.
            .cpp_link_stdlib(None)
            .include(&sppark_root)
            .include(&blst_src)
            // sppark hands the CUDA error text back only with this defined.
            .define("TAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE", None)
            // H100 and H200 are sm_90: the driver picks the sm_90a image there, sm_90 is a fallback.
            .flag("-gencode=arch=compute_90a,code=sm_90a")
            .flag("-gencode=arch=compute_90,code=sm_90")
            .flag("--threads=2")
            .flag("-Xcompiler=-Wno-unused-function")
            .file(format!("cuda/{unit}.cu"))
            .compile(&format!("fastmsm_sppark_{unit}"));
    }

    // The CUDA runtime, static, from the wheels' lib/ (not where a CUDA toolkit would keep it).
    println!("cargo:rustc-link-search=native={}", cuda_lib.display());
    println!("cargo:rustc-link-lib=static=cudart_static");
    let libstdcxx = Command::new(env::var("CXX").unwrap_or_else(|_| "g++".into()))
        .arg("-print-file-name=libstdc++.a")
        .output()
        .expect("run g++ -print-file-name");
    let libstdcxx = PathBuf::from(String::from_utf8(libstdcxx.stdout).unwrap().trim());
    assert!(
        libstdcxx.is_absolute(),
        "g++ does not know libstdc++.a (install g++)"
    );
    println!(
        "cargo:rustc-link-search=native={}",
        libstdcxx.parent().unwrap().display()
    );
    println!("cargo:rustc-link-lib=static=stdc++");
    for lib in ["dl", "rt", "pthread"] {
        println!("cargo:rustc-link-lib={lib}");
    }

    // What the JSON records about the build.
    let nvcc_version = Command::new(&nvcc)
        .arg("--version")
        .output()
        .expect("nvcc --version");
    let nvcc_version = String::from_utf8_lossy(&nvcc_version.stdout)
        .lines()
        .find(|l| l.contains("release"))
        .unwrap_or("unknown")
        .trim()
        .to_string();
    println!("cargo:rustc-env=SPPARK_BENCH_NVCC={nvcc_version}");
    let version = Path::new(&sppark_root)
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sppark (unknown version)".into());
    println!("cargo:rustc-env=SPPARK_BENCH_SPPARK={version}");
}
