//! Conversions at the JS boundary: errors that name the field, option objects, results.

use dicechess::board::{DfenError, Position};
use serde::Serialize;
#[cfg(feature = "bots")]
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

/// A JS `Error` with `message` and a `field` property naming the input that is wrong.
pub(crate) fn field_error(field: &str, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&e, &"field".into(), &field.into());
    e.into()
}

/// The engine's DFEN error as a JS `Error` (message `"<field>: …"`, property `field`).
pub(crate) fn dfen_error(e: &DfenError) -> JsValue {
    field_error(e.field(), &e.to_string())
}

/// Parse a DFEN, or throw naming the field.
pub(crate) fn position(dfen: &str) -> Result<Position, JsValue> {
    Position::from_dfen(dfen).map_err(|e| dfen_error(&e))
}

/// Parse a DFEN that must carry rolled dice (field 7), as the CLI's `bestmove` and
/// `playable` require; the error names the `dice` field like the CLI's.
pub(crate) fn rolled_position(dfen: &str) -> Result<Position, JsValue> {
    let pos = position(dfen)?;
    if pos.dice().is_empty() {
        return Err(field_error(
            "dice",
            &format!(
                "dice: this call needs the rolled dice as field 7 (e.g. \"{} PNB\"), found none in {dfen:?}",
                pos.to_dfen()
            ),
        ));
    }
    Ok(pos)
}

/// A plain JS value (objects, arrays, numbers) of a serialisable Rust value.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::Error::new(&format!("result: {e}")).into())
}

/// An optional options object (`undefined` or `null`: every option takes its default).
#[cfg(feature = "bots")]
pub(crate) struct Options(Option<js_sys::Object>);

#[cfg(feature = "bots")]
impl Options {
    /// Read `value` as an options object, or throw (`options: expected an object`).
    pub(crate) fn new(value: &JsValue) -> Result<Options, JsValue> {
        if value.is_undefined() || value.is_null() {
            return Ok(Options(None));
        }
        match value.dyn_ref::<js_sys::Object>() {
            Some(o) if value.is_object() && !js_sys::Array::is_array(value) => {
                Ok(Options(Some(o.clone())))
            }
            _ => Err(field_error("options", "options: expected an object")),
        }
    }

    /// The option `name`, `None` when absent, `undefined` or `null`.
    fn get(&self, name: &str) -> Result<Option<JsValue>, JsValue> {
        let Some(o) = &self.0 else { return Ok(None) };
        let v = js_sys::Reflect::get(o, &name.into())?;
        Ok((!v.is_undefined() && !v.is_null()).then_some(v))
    }

    /// A function option (a callback).
    pub(crate) fn function(&self, name: &str) -> Result<Option<js_sys::Function>, JsValue> {
        self.get(name)?
            .map(|v| {
                v.dyn_into::<js_sys::Function>()
                    .map_err(|_| field_error(name, &format!("{name}: expected a function")))
            })
            .transpose()
    }

    /// A string option.
    pub(crate) fn string(&self, name: &str) -> Result<Option<String>, JsValue> {
        self.get(name)?
            .map(|v| {
                v.as_string()
                    .ok_or_else(|| field_error(name, &format!("{name}: expected a string")))
            })
            .transpose()
    }

    /// A non-negative finite number option.
    pub(crate) fn number(&self, name: &str) -> Result<Option<f64>, JsValue> {
        self.get(name)?
            .map(|v| match v.as_f64() {
                Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
                _ => Err(field_error(
                    name,
                    &format!("{name}: expected a non-negative number"),
                )),
            })
            .transpose()
    }

    /// A non-negative integer option of at most `max` (`max` ≤ 2^53, exact in a JS number).
    pub(crate) fn integer(&self, name: &str, max: u64) -> Result<Option<u64>, JsValue> {
        match self.number(name)? {
            Some(x) if x.fract() == 0.0 && x <= max as f64 => Ok(Some(x as u64)),
            Some(_) => Err(field_error(
                name,
                &format!("{name}: expected an integer from 0 to {max}"),
            )),
            None => Ok(None),
        }
    }
}

/// The largest integer a JS number holds exactly.
#[cfg(feature = "bots")]
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
