//! Profiles kept between runs. Natively a JSON file holds one calibrated profile per adapter,
//! keyed by [`device_key`]; in the browser the book's widget keeps the same JSON in its own store.
//! The MSM's default profile reads it ([`crate::msm::ProfileChoice::Auto`]); only an explicit
//! calibration ([`crate::calibrate::calibrate`]) writes it.

#[cfg(not(target_arch = "wasm32"))]
use super::DeviceProfile;
use crate::GpuContext;
#[cfg(not(target_arch = "wasm32"))]
use crate::GpuError;
#[cfg(not(target_arch = "wasm32"))]
use serde_json::json;

/// The adapter a profile belongs to: name, backend and driver.
pub fn device_key(ctx: &GpuContext) -> String {
    let driver = format!("{} {}", ctx.info.driver, ctx.info.driver_info);
    format!(
        "{} / {:?} / {}",
        ctx.info.name,
        ctx.info.backend,
        driver.trim()
    )
}

/// Where calibrations are cached natively: `$FASTMSM_PROFILE_CACHE`, else
/// `$XDG_CACHE_HOME/fastmsm/device-profiles.json`, else `~/.cache/fastmsm/device-profiles.json`.
#[cfg(not(target_arch = "wasm32"))]
pub fn default_cache_path() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("FASTMSM_PROFILE_CACHE").or_else(|| {
        env("XDG_CACHE_HOME")
            .or_else(|| env("HOME").map(|h| h.join(".cache")))
            .map(|d| d.join("fastmsm").join("device-profiles.json"))
    })
}

/// The cached calibration of this device in the file at `path` (one entry per device key), if
/// any. A file that exists but cannot be read is an error naming it.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_cached(
    path: &std::path::Path,
    ctx: &GpuContext,
) -> Result<Option<DeviceProfile>, GpuError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(GpuError::Input(format!("{}: {e}", path.display()))),
    };
    let doc: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| GpuError::Input(format!("{}: not JSON: {e}", path.display())))?;
    doc.get(device_key(ctx))
        .map(DeviceProfile::from_json)
        .transpose()
        .map(|p| {
            p.map(|p| DeviceProfile {
                origin: super::Origin::Cached,
                ..p
            })
        })
        .map_err(|e| GpuError::Input(format!("{}: {e}", path.display())))
}

/// Writes `profile` into the file at `path` under this device's key, keeping other devices'.
#[cfg(not(target_arch = "wasm32"))]
pub fn store_cached(
    path: &std::path::Path,
    ctx: &GpuContext,
    profile: &DeviceProfile,
) -> Result<(), GpuError> {
    let io = |e: std::io::Error| GpuError::Input(format!("{}: {e}", path.display()));
    let mut doc = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .filter(|d| d.is_object())
        .unwrap_or_else(|| json!({}));
    doc[device_key(ctx)] = profile.to_json();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(
        path,
        serde_json::to_string_pretty(&doc).expect("JSON") + "\n",
    )
    .map_err(io)
}
