//! The C interface of cuda/*.cu (sppark's MSM, the CUDA device, page-locked memory) and the
//! curves' data layout: arkworks' points and scalars in the form sppark reads, its Jacobian result
//! back into an arkworks point.

use std::ffi::{CStr, c_char, c_void};

use ark_ec::CurveGroup;
use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ff::{BigInt, PrimeField};

const MSG: usize = 512;

#[repr(C)]
struct RawDeviceInfo {
    name: [c_char; 256],
    driver_version: i32,
    runtime_version: i32,
    major: i32,
    minor: i32,
    sm_count: i32,
    global_memory: usize,
}

unsafe extern "C" {
    fn fastmsm_sppark_device(info: *mut RawDeviceInfo, msg: *mut c_char, cap: usize) -> i32;
    fn fastmsm_sppark_host_alloc(
        bytes: usize,
        ptr: *mut *mut c_void,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_host_free(ptr: *mut c_void);
    fn fastmsm_sppark_field_bytes_bls12_377() -> usize;
    fn fastmsm_sppark_field_bytes_bn254() -> usize;
    fn fastmsm_sppark_msm_bls12_377(
        out: *mut u64,
        points: *const u64,
        n: usize,
        scalars: *const u64,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_msm_bn254(
        out: *mut u64,
        points: *const u64,
        n: usize,
        scalars: *const u64,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_new_bls12_377(
        points: *const u64,
        n: usize,
        handle: *mut *mut c_void,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_new_bn254(
        points: *const u64,
        n: usize,
        handle: *mut *mut c_void,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_msm_bls12_377(
        handle: *mut c_void,
        out: *mut u64,
        n: usize,
        scalars: *const u64,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_msm_bn254(
        handle: *mut c_void,
        out: *mut u64,
        n: usize,
        scalars: *const u64,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_free_bls12_377(handle: *mut c_void);
    fn fastmsm_sppark_bases_free_bn254(handle: *mut c_void);
    fn fastmsm_sppark_host_msm_bls12_377(
        out: *mut u64,
        points: *const u64,
        n: usize,
        scalars: *const u64,
    );
    fn fastmsm_sppark_host_msm_bn254(
        out: *mut u64,
        points: *const u64,
        n: usize,
        scalars: *const u64,
    );
    fn fastmsm_sppark_field_bytes_bls12_381() -> usize;
    fn fastmsm_sppark_msm_bls12_381(
        out: *mut u64,
        points: *const u64,
        n: usize,
        scalars: *const u64,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_new_bls12_381(
        points: *const u64,
        n: usize,
        handle: *mut *mut c_void,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_msm_bls12_381(
        handle: *mut c_void,
        out: *mut u64,
        n: usize,
        scalars: *const u64,
        msg: *mut c_char,
        cap: usize,
    ) -> i32;
    fn fastmsm_sppark_bases_free_bls12_381(handle: *mut c_void);
    fn fastmsm_sppark_host_msm_bls12_381(
        out: *mut u64,
        points: *const u64,
        n: usize,
        scalars: *const u64,
    );
}

fn message(buf: &[c_char; MSG]) -> String {
    // SAFETY: the C side writes a NUL-terminated string into the zeroed buffer (snprintf).
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// CUDA device 0 as the runtime reports it.
pub struct Device {
    pub name: String,
    /// Newest CUDA version the driver supports, as major.minor.
    pub driver_cuda: String,
    /// The CUDA runtime linked into this binary, as major.minor.
    pub runtime_cuda: String,
    pub compute_capability: String,
    pub sm_count: i32,
    pub global_memory: usize,
}

fn cuda_version(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

/// The device, or the CUDA error text when there is none to use (no driver library, no GPU).
pub fn device() -> Result<Device, String> {
    let mut raw = RawDeviceInfo {
        name: [0; 256],
        driver_version: 0,
        runtime_version: 0,
        major: 0,
        minor: 0,
        sm_count: 0,
        global_memory: 0,
    };
    let mut msg = [0 as c_char; MSG];
    // SAFETY: both pointers are valid for the sizes given; the C side fills `raw` or returns non-zero.
    let code = unsafe { fastmsm_sppark_device(&mut raw, msg.as_mut_ptr(), MSG) };
    if code != 0 {
        // A driver version of 0: the runtime found no driver library to load at all.
        let driver = if raw.driver_version == 0 {
            "no NVIDIA driver library (libcuda.so.1) could be loaded".to_string()
        } else {
            format!(
                "the driver supports CUDA {}",
                cuda_version(raw.driver_version)
            )
        };
        return Err(format!(
            "{} (CUDA error {code}; {driver}; this binary's CUDA runtime is {})",
            message(&msg),
            cuda_version(raw.runtime_version)
        ));
    }
    // SAFETY: the name was written by snprintf into a zeroed 256-byte array.
    let name = unsafe { CStr::from_ptr(raw.name.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    Ok(Device {
        name,
        driver_cuda: cuda_version(raw.driver_version),
        runtime_cuda: cuda_version(raw.runtime_version),
        compute_capability: format!("{}.{}", raw.major, raw.minor),
        sm_count: raw.sm_count,
        global_memory: raw.global_memory,
    })
}

/// Page-locked host memory (cudaMallocHost) holding a copy of a slice of words.
pub struct Pinned {
    ptr: *mut u64,
    len: usize,
}

impl Pinned {
    pub fn copy_of(words: &[u64]) -> Result<Pinned, String> {
        let bytes = std::mem::size_of_val(words);
        let mut ptr = std::ptr::null_mut();
        let mut msg = [0 as c_char; MSG];
        // SAFETY: out-pointer and message buffer are valid; on success `ptr` holds `bytes` bytes.
        let code = unsafe { fastmsm_sppark_host_alloc(bytes, &mut ptr, msg.as_mut_ptr(), MSG) };
        if code != 0 {
            return Err(format!(
                "cudaMallocHost of {bytes} bytes: {}",
                message(&msg)
            ));
        }
        let ptr = ptr as *mut u64;
        // SAFETY: fresh allocation of the same size, not overlapping `words`.
        unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), ptr, words.len()) };
        Ok(Pinned {
            ptr,
            len: words.len(),
        })
    }

    pub fn as_slice(&self) -> &[u64] {
        // SAFETY: `ptr` holds `len` initialised words until drop.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        // SAFETY: allocated by cudaMallocHost in `copy_of`, freed once.
        unsafe { fastmsm_sppark_host_free(self.ptr as *mut c_void) }
    }
}

/// Points held on the GPU by sppark (its msm_t), for MSMs that send only the scalars.
pub struct Resident {
    handle: *mut c_void,
    n: usize,
    limbs: usize,
    curve: &'static str,
    run: unsafe extern "C" fn(*mut c_void, *mut u64, usize, *const u64, *mut c_char, usize) -> i32,
    free: unsafe extern "C" fn(*mut c_void),
}

impl Resident {
    /// The MSM of the resident points with `scalars` (as many as there are points).
    pub fn msm(&self, out: &mut [u64], scalars: &[u64]) -> Result<(), String> {
        assert_eq!(
            scalars.len(),
            4 * self.n,
            "scalars: {} words for {} resident points",
            scalars.len(),
            self.n
        );
        assert_eq!(out.len(), 3 * self.limbs, "result buffer");
        let mut msg = [0 as c_char; MSG];
        // SAFETY: a live handle; the slices have the lengths checked above.
        let code = unsafe {
            (self.run)(
                self.handle,
                out.as_mut_ptr(),
                self.n,
                scalars.as_ptr(),
                msg.as_mut_ptr(),
                MSG,
            )
        };
        if code != 0 {
            return Err(format!(
                "sppark {} MSM of {} resident points: {} (CUDA error {code})",
                self.curve,
                self.n,
                message(&msg)
            ));
        }
        Ok(())
    }
}

impl Drop for Resident {
    fn drop(&mut self) {
        // SAFETY: created by the matching bases_new, freed once.
        unsafe { (self.free)(self.handle) }
    }
}

/// A curve sppark is built for here: its arkworks configuration, and the entry points of its
/// translation unit. `LIMBS` is the number of 64-bit words of a base-field element.
pub trait Curve {
    type Config: SWCurveConfig;
    const NAME: &'static str;
    const LIMBS: usize;
    /// sizeof(fp_t) on the C side, to check `LIMBS` against.
    fn field_bytes() -> usize;
    /// sppark's GPU MSM: `out` gets 3 × LIMBS words (Jacobian X, Y, Z); an error names the failure.
    fn device_msm(out: &mut [u64], points: &[u64], scalars: &[u64]) -> Result<(), String>;
    /// The points uploaded to the GPU once (sppark's msm_t), returned when the copy is complete.
    fn upload(points: &[u64]) -> Result<Resident, String>;
    /// The same sum by sppark's host arithmetic (slow: for the self-check only).
    fn host_msm(out: &mut [u64], points: &[u64], scalars: &[u64]);
    /// A base-field element's Montgomery-form limbs, as arkworks stores them.
    fn limbs(f: &<Self::Config as ark_ec::CurveConfig>::BaseField) -> &[u64];
    /// The inverse of `limbs`.
    fn element(limbs: &[u64]) -> <Self::Config as ark_ec::CurveConfig>::BaseField;
}

fn check_lengths<C: Curve + ?Sized>(out: &[u64], points: &[u64], scalars: &[u64]) -> usize {
    let n = scalars.len() / 4;
    assert_eq!(
        scalars.len(),
        4 * n,
        "scalars: not a whole number of 4-word scalars"
    );
    assert_eq!(
        points.len(),
        2 * C::LIMBS * n,
        "points: {} words for {n} scalars",
        points.len()
    );
    assert_eq!(out.len(), 3 * C::LIMBS, "result buffer");
    n
}

macro_rules! curve {
    ($ty:ident, $config:ty, $name:literal, $limbs:literal, $bytes:ident, $msm:ident, $host:ident,
     $new:ident, $run:ident, $free:ident) => {
        pub struct $ty;
        impl Curve for $ty {
            type Config = $config;
            const NAME: &'static str = $name;
            const LIMBS: usize = $limbs;
            fn field_bytes() -> usize {
                // SAFETY: returns a constant.
                unsafe { $bytes() }
            }
            fn device_msm(out: &mut [u64], points: &[u64], scalars: &[u64]) -> Result<(), String> {
                let n = check_lengths::<Self>(out, points, scalars);
                let mut msg = [0 as c_char; MSG];
                // SAFETY: the slices have the lengths the C side reads for n points (checked above).
                let code = unsafe {
                    $msm(
                        out.as_mut_ptr(),
                        points.as_ptr(),
                        n,
                        scalars.as_ptr(),
                        msg.as_mut_ptr(),
                        MSG,
                    )
                };
                if code != 0 {
                    return Err(format!(
                        "sppark {} MSM of {n} points: {} (CUDA error {code})",
                        $name,
                        message(&msg)
                    ));
                }
                Ok(())
            }
            fn upload(points: &[u64]) -> Result<Resident, String> {
                let n = points.len() / (2 * $limbs);
                assert_eq!(
                    points.len(),
                    2 * $limbs * n,
                    "points: not a whole number of points"
                );
                let mut handle = std::ptr::null_mut();
                let mut msg = [0 as c_char; MSG];
                // SAFETY: `points` holds n points; the C side sets `handle` or returns non-zero.
                let code = unsafe { $new(points.as_ptr(), n, &mut handle, msg.as_mut_ptr(), MSG) };
                if code != 0 {
                    return Err(format!(
                        "sppark {}: uploading {n} points: {} (CUDA error {code})",
                        $name,
                        message(&msg)
                    ));
                }
                Ok(Resident {
                    handle,
                    n,
                    limbs: $limbs,
                    curve: $name,
                    run: $run,
                    free: $free,
                })
            }
            fn host_msm(out: &mut [u64], points: &[u64], scalars: &[u64]) {
                let n = check_lengths::<Self>(out, points, scalars);
                // SAFETY: as in device_msm.
                unsafe { $host(out.as_mut_ptr(), points.as_ptr(), n, scalars.as_ptr()) }
            }
            fn limbs(f: &<Self::Config as ark_ec::CurveConfig>::BaseField) -> &[u64] {
                &f.0.0
            }
            fn element(limbs: &[u64]) -> <Self::Config as ark_ec::CurveConfig>::BaseField {
                <Self::Config as ark_ec::CurveConfig>::BaseField::new_unchecked(BigInt(
                    limbs.try_into().expect("limb count"),
                ))
            }
        }
    };
}

curve!(
    Bls12_377,
    ark_bls12_377::g1::Config,
    "bls12-377",
    6,
    fastmsm_sppark_field_bytes_bls12_377,
    fastmsm_sppark_msm_bls12_377,
    fastmsm_sppark_host_msm_bls12_377,
    fastmsm_sppark_bases_new_bls12_377,
    fastmsm_sppark_bases_msm_bls12_377,
    fastmsm_sppark_bases_free_bls12_377
);
curve!(
    Bls12_381,
    ark_bls12_381::g1::Config,
    "bls12-381",
    6,
    fastmsm_sppark_field_bytes_bls12_381,
    fastmsm_sppark_msm_bls12_381,
    fastmsm_sppark_host_msm_bls12_381,
    fastmsm_sppark_bases_new_bls12_381,
    fastmsm_sppark_bases_msm_bls12_381,
    fastmsm_sppark_bases_free_bls12_381
);
curve!(
    Bn254,
    ark_bn254::g1::Config,
    "bn254",
    4,
    fastmsm_sppark_field_bytes_bn254,
    fastmsm_sppark_msm_bn254,
    fastmsm_sppark_host_msm_bn254,
    fastmsm_sppark_bases_new_bn254,
    fastmsm_sppark_bases_msm_bn254,
    fastmsm_sppark_bases_free_bn254
);

/// Points as sppark's affine_t array: x then y per point. The identity becomes (0, 0), which is how
/// sppark's affine_t (without an infinity flag) marks it.
pub fn points<C: Curve>(points: &[Affine<C::Config>]) -> Vec<u64> {
    let mut words = Vec::with_capacity(points.len() * 2 * C::LIMBS);
    for p in points {
        if p.infinity {
            words.extend(std::iter::repeat_n(0, 2 * C::LIMBS));
        } else {
            words.extend_from_slice(C::limbs(&p.x));
            words.extend_from_slice(C::limbs(&p.y));
        }
    }
    words
}

/// Scalars as canonical little-endian 4-word integers (sppark's fr_t with mont = false).
pub fn scalars<C: Curve>(scalars: &[<C::Config as ark_ec::CurveConfig>::ScalarField]) -> Vec<u64> {
    let mut words = Vec::with_capacity(scalars.len() * 4);
    for k in scalars {
        let big = k.into_bigint();
        let limbs: &[u64] = big.as_ref();
        assert_eq!(limbs.len(), 4, "scalar field of more than 256 bits");
        words.extend_from_slice(limbs);
    }
    words
}

/// sppark's Jacobian result (X, Y, Z; Z = 0 the identity) as an arkworks affine point. arkworks'
/// short-Weierstrass projective form is Jacobian too, so this is one field inversion.
pub fn affine<C: Curve>(jacobian: &[u64]) -> Affine<C::Config> {
    let l = C::LIMBS;
    Projective::<C::Config>::new_unchecked(
        C::element(&jacobian[..l]),
        C::element(&jacobian[l..2 * l]),
        C::element(&jacobian[2 * l..3 * l]),
    )
    .into_affine()
}
