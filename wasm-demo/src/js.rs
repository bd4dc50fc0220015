//! What crosses to JavaScript: errors, results as plain objects, and progress callbacks.
//!
//! In every package (whatever its features), so it uses nothing else from the crate.

use serde::Serialize;
use wasm_bindgen::JsValue;

/// A JS `Error` whose message is `message`: what every entry point throws on bad input.
pub(crate) fn err(message: impl core::fmt::Display) -> JsValue {
    js_sys::Error::new(&message.to_string()).into()
}

/// Serialises a result for JS, keeping maps as plain objects.
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsValue::from_str(&e.to_string()))
}

/// The widget's `progress(fraction, text)` callback as a Rust closure. A throwing callback is
/// ignored: progress is a courtesy, the run goes on.
#[cfg(any(feature = "cpu-msm", feature = "gpu"))]
pub(crate) fn progress(callback: &js_sys::Function) -> impl Fn(f64, &str) + '_ {
    move |fraction, text| {
        let _ = callback.call2(
            &JsValue::NULL,
            &JsValue::from_f64(fraction),
            &JsValue::from_str(text),
        );
    }
}

/// The getters of an exported object that holds one curve's points: `curve`, the curve's name
/// (from the field `curve: String`), and `n`, how many points it holds (from `self.inner.n()`).
#[cfg(any(feature = "cpu-msm", feature = "shares"))]
macro_rules! curve_and_n_getters {
    ($object:ident) => {
        #[wasm_bindgen::prelude::wasm_bindgen]
        impl $object {
            /// The curve's name.
            #[wasm_bindgen(getter)]
            pub fn curve(&self) -> String {
                self.curve.clone()
            }

            /// How many points it holds.
            #[wasm_bindgen(getter)]
            pub fn n(&self) -> u32 {
                self.inner.n() as u32
            }
        }
    };
}
#[cfg(any(feature = "cpu-msm", feature = "shares"))]
pub(crate) use curve_and_n_getters;
