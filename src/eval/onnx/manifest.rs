//! The model manifest (`manifest.json`, docs/model-packages.md): parsed from bytes and
//! checked field by field, in the documented order, into a [`Manifest`]. Needs no model
//! runtime, so it compiles (and can be fuzzed) without the `onnx` feature.
//!
//! Check order (the first failure is the error reported):
//!
//! 1. the bytes are a JSON object; `manifestVersion` is `"1.0.0"` or `"1.1.0"`;
//! 2. fields present, typed and non-blank: `modelId`, `modelSha256` (64 hex digits),
//!    `modelDataSha256` (optional, 64 hex digits: the side file `model.onnx.data`),
//!    `modelRole` (required in 1.1.0, refused in 1.0.0), `featureSchema`, `featureCount`
//!    (a whole number: `13` and `13.0` both accepted), `inputName` / `outputName` (optional,
//!    default `input` / `output`), `perspective` (required in 1.1.0), `engineCompatibility`;
//! 3. `modelRole` names a role, `featureSchema` a schema, and `featureCount` equals the
//!    schema's width;
//! 4. `perspective` is `side-to-move`;
//! 5. `engineCompatibility` follows the comparator grammar and admits the engine's version;
//! 6. optional fields (`evaluationProfile`, `calibration`, `provenance`) are typed and
//!    recorded; they never change how the model is run.
//!
//! Unknown fields are ignored, and a JSON `null` counts as an absent field. Two decisions the
//! reference leaves open: a 1.0.0 manifest may carry `perspective` (it must then be
//! `side-to-move`), and `evaluationProfile` of any JSON type is recorded as text.

use super::error::ModelError;
use super::version::{EngineRequirement, EngineVersion};
use crate::eval::features::{self, FeatureSchema};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// This engine's version (`Cargo.toml`), the one `engineCompatibility` must admit.
pub use crate::ENGINE_VERSION;

/// The only perspective a manifest may declare: feature row and output are both for the
/// evaluated colour (no `1 − p` flip ever happens in the engine).
pub const SIDE_TO_MOVE: &str = "side-to-move";

/// Default graph input name when the manifest has no `inputName`.
pub const DEFAULT_INPUT_NAME: &str = "input";

/// Default graph output name when the manifest has no `outputName`.
pub const DEFAULT_OUTPUT_NAME: &str = "output";

/// The manifest format versions this engine reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ManifestVersion {
    /// `1.0.0` (legacy): no `modelRole` (always position-value), no required perspective.
    V1_0_0,
    /// `1.1.0` (current): `modelRole` and `perspective` required.
    V1_1_0,
}

impl ManifestVersion {
    /// The version as written in the manifest.
    pub fn as_str(self) -> &'static str {
        match self {
            ManifestVersion::V1_0_0 => "1.0.0",
            ManifestVersion::V1_1_0 => "1.1.0",
        }
    }
}

/// What a model's output means, and so which seam of the engine may load it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// P(evaluated colour wins): leaves and root rescoring.
    PositionValue,
    /// The expectation a chance node would compute (trained against a deeper search).
    ChanceCollapse,
    /// An ordering score only.
    MovePrerank,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 3] = [Role::PositionValue, Role::ChanceCollapse, Role::MovePrerank];

    /// The role as written in a manifest (`position-value`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::PositionValue => "position-value",
            Role::ChanceCollapse => "chance-collapse",
            Role::MovePrerank => "move-prerank",
        }
    }

    /// The role a manifest string names, if any.
    pub fn from_name(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The advisory `calibration` block: recorded, never applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// `temperature` (default 1.0).
    pub temperature: f64,
    /// `brierScore`.
    pub brier_score: Option<f64>,
    /// `logLoss`.
    pub log_loss: Option<f64>,
    /// `calibratedOn`.
    pub calibrated_on: Option<String>,
}

/// A checked `manifest.json` (docs/model-packages.md).
#[derive(Clone)]
pub struct Manifest {
    /// `manifestVersion`.
    pub manifest_version: ManifestVersion,
    /// `modelId` (non-blank).
    pub model_id: String,
    /// `modelSha256`, lower case.
    pub model_sha256: String,
    /// `modelDataSha256`, lower case: the SHA-256 of `model.onnx.data` when the model keeps
    /// its weights there (optional; required by the package loader exactly when the model
    /// names external data).
    pub model_data_sha256: Option<String>,
    /// `modelRole` (position-value when a 1.0.0 manifest has none).
    pub model_role: Role,
    /// `featureSchema`, a known schema id.
    pub feature_schema: String,
    /// `featureCount`, equal to the schema's width.
    pub feature_count: usize,
    /// `inputName` (default `input`).
    pub input_name: String,
    /// `outputName` (default `output`).
    pub output_name: String,
    /// `engineCompatibility`, which admits [`ENGINE_VERSION`].
    pub engine_compatibility: EngineRequirement,
    /// `evaluationProfile` (recorded only; non-string values as JSON text).
    pub evaluation_profile: Option<String>,
    /// `calibration` (advisory, never applied).
    pub calibration: Option<Calibration>,
    /// `provenance` (numbers and booleans rendered as text).
    pub provenance: BTreeMap<String, String>,
    schema: &'static dyn FeatureSchema,
}

impl fmt::Debug for Manifest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Manifest")
            .field("manifest_version", &self.manifest_version)
            .field("model_id", &self.model_id)
            .field("model_sha256", &self.model_sha256)
            .field("model_data_sha256", &self.model_data_sha256)
            .field("model_role", &self.model_role)
            .field("feature_schema", &self.feature_schema)
            .field("feature_count", &self.feature_count)
            .field("input_name", &self.input_name)
            .field("output_name", &self.output_name)
            .field("engine_compatibility", &self.engine_compatibility.text)
            .field("evaluation_profile", &self.evaluation_profile)
            .field("calibration", &self.calibration)
            .field("provenance", &self.provenance)
            .finish()
    }
}

impl Manifest {
    /// Parse and check a manifest against this engine's version ([`ENGINE_VERSION`]).
    /// Never panics, whatever the bytes.
    pub fn parse(bytes: &[u8]) -> Result<Manifest, ModelError> {
        Manifest::parse_for_engine(bytes, ENGINE_VERSION)
    }

    /// Parse and check a manifest as an engine of version `engine_version` would.
    pub fn parse_for_engine(bytes: &[u8], engine_version: &str) -> Result<Manifest, ModelError> {
        let root: Value =
            serde_json::from_slice(bytes).map_err(|e| ModelError::ManifestJson(e.to_string()))?;
        let obj = match &root {
            Value::Object(m) => m,
            other => return Err(ModelError::ManifestJson(format!("found {}", show(other)))),
        };
        let f = Fields(obj);

        // 1. Version.
        let manifest_version = manifest_version(&f)?;
        let v11 = manifest_version == ManifestVersion::V1_1_0;

        // 2. Required fields present, typed, non-blank.
        let model_id = f.required_str("modelId")?.to_string();
        let sha = f.required_str("modelSha256")?;
        let model_sha256 = sha256_field("modelSha256", sha)?;
        let model_data_sha256 = f
            .optional_str("modelDataSha256")?
            .map(|s| sha256_field("modelDataSha256", s))
            .transpose()?;
        let role_name = match (v11, f.get("modelRole")) {
            (true, _) => Some(f.required_str("modelRole")?),
            (false, None) => None,
            (false, Some(_)) => return Err(ModelError::LegacyField { field: "modelRole" }),
        };
        let schema_id = f.required_str("featureSchema")?;
        let feature_count = match f.get("featureCount") {
            None => {
                return Err(ModelError::MissingField {
                    field: "featureCount",
                })
            }
            Some(v) => {
                whole_number(v).ok_or_else(|| ModelError::FeatureCount { value: show(v) })?
            }
        };
        let input_name = f
            .optional_str("inputName")?
            .unwrap_or(DEFAULT_INPUT_NAME)
            .to_string();
        let output_name = f
            .optional_str("outputName")?
            .unwrap_or(DEFAULT_OUTPUT_NAME)
            .to_string();
        let perspective = if v11 {
            Some(f.required_str("perspective")?)
        } else {
            f.optional_str("perspective")?
        };
        let compat = f.required_str("engineCompatibility")?;

        // 3. Role and schema resolve; featureCount equals the schema's width.
        let (model_role, schema) = role_and_schema(role_name, schema_id, feature_count)?;

        // 4. Perspective.
        if let Some(p) = perspective {
            if p != SIDE_TO_MOVE {
                return Err(ModelError::Perspective { value: truncate(p) });
            }
        }

        // 5. Engine compatibility.
        let engine_compatibility = engine_requirement(compat, engine_version)?;

        // 6. Optional, recorded fields.
        let evaluation_profile = f.get("evaluationProfile").map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let calibration = f.get("calibration").map(calibration).transpose()?;
        let provenance = match f.get("provenance") {
            None => BTreeMap::new(),
            Some(v) => provenance(v)?,
        };

        Ok(Manifest {
            manifest_version,
            model_id,
            model_sha256,
            model_data_sha256,
            model_role,
            feature_schema: schema.id().to_string(),
            feature_count: feature_count as usize,
            input_name,
            output_name,
            engine_compatibility,
            evaluation_profile,
            calibration,
            provenance,
            schema,
        })
    }

    /// The feature schema `featureSchema` names.
    pub fn schema(&self) -> &'static dyn FeatureSchema {
        self.schema
    }
}

/// `manifestVersion`: 1.0.0 or 1.1.0.
fn manifest_version(f: &Fields<'_>) -> Result<ManifestVersion, ModelError> {
    match f.get("manifestVersion") {
        None => Err(ModelError::MissingField {
            field: "manifestVersion",
        }),
        Some(Value::String(s)) if s == "1.0.0" => Ok(ManifestVersion::V1_0_0),
        Some(Value::String(s)) if s == "1.1.0" => Ok(ManifestVersion::V1_1_0),
        Some(v) => Err(ModelError::ManifestVersion { value: show(v) }),
    }
}

/// The role `modelRole` names (a position value when absent) and the schema
/// `featureSchema` names, whose width must be `featureCount`.
fn role_and_schema(
    role_name: Option<&str>,
    schema_id: &str,
    feature_count: u64,
) -> Result<(Role, &'static dyn FeatureSchema), ModelError> {
    let model_role = match role_name {
        None => Role::PositionValue,
        Some(name) => Role::from_name(name).ok_or_else(|| ModelError::UnknownRole {
            value: truncate(name),
        })?,
    };
    let schema = features::schema(schema_id).ok_or_else(|| ModelError::UnknownSchema {
        value: truncate(schema_id),
    })?;
    if feature_count != schema.width() as u64 {
        return Err(ModelError::FeatureCountMismatch {
            schema: schema.id().to_string(),
            width: schema.width(),
            feature_count,
        });
    }
    Ok((model_role, schema))
}

/// `engineCompatibility` parsed, and admitting `engine_version`.
fn engine_requirement(compat: &str, engine_version: &str) -> Result<EngineRequirement, ModelError> {
    let engine_compatibility = EngineRequirement::parse(compat).map_err(|reason| {
        ModelError::EngineCompatibilitySyntax {
            value: truncate(compat),
            reason,
        }
    })?;
    let host = EngineVersion::parse(engine_version).ok();
    if !host.is_some_and(|h| engine_compatibility.admits(h)) {
        return Err(ModelError::EngineIncompatible {
            requirement: truncate(compat),
            version: truncate(engine_version),
        });
    }
    Ok(engine_compatibility)
}

/// Field access with `null` read as absent.
/// A 64-hex-digit digest field, lower-cased.
fn sha256_field(field: &'static str, value: &str) -> Result<String, ModelError> {
    if value.len() != 64 || !value.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ModelError::Sha256Format {
            field,
            value: truncate(value),
        });
    }
    Ok(value.to_ascii_lowercase())
}

struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    fn get(&self, field: &str) -> Option<&'a Value> {
        self.0.get(field).filter(|v| !v.is_null())
    }

    fn required_str(&self, field: &'static str) -> Result<&'a str, ModelError> {
        self.optional_str(field)?
            .ok_or(ModelError::MissingField { field })
    }

    fn optional_str(&self, field: &'static str) -> Result<Option<&'a str>, ModelError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Err(ModelError::BlankField { field }),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(ModelError::FieldType {
                field: field.to_string(),
                expected: "a string",
                value: show(v),
            }),
        }
    }
}

/// A non-negative whole JSON number (`13` or `13.0`).
fn whole_number(v: &Value) -> Option<u64> {
    let n = v.as_number()?;
    if let Some(u) = n.as_u64() {
        return Some(u);
    }
    let f = n.as_f64()?;
    // 2^64 as f64; `as` saturates, so nothing here can panic.
    (f.is_finite() && f >= 0.0 && f.fract() == 0.0 && f < 18_446_744_073_709_551_616.0)
        .then_some(f as u64)
}

fn calibration(v: &Value) -> Result<Calibration, ModelError> {
    let Value::Object(m) = v else {
        return Err(ModelError::FieldType {
            field: "calibration".into(),
            expected: "an object",
            value: show(v),
        });
    };
    let number = |key: &str| -> Result<Option<f64>, ModelError> {
        match m.get(key).filter(|x| !x.is_null()) {
            None => Ok(None),
            Some(x) => x.as_f64().map(Some).ok_or_else(|| ModelError::FieldType {
                field: format!("calibration.{key}"),
                expected: "a number",
                value: show(x),
            }),
        }
    };
    let calibrated_on = match m.get("calibratedOn").filter(|x| !x.is_null()) {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(x) => {
            return Err(ModelError::FieldType {
                field: "calibration.calibratedOn".into(),
                expected: "a string",
                value: show(x),
            })
        }
    };
    Ok(Calibration {
        temperature: number("temperature")?.unwrap_or(1.0),
        brier_score: number("brierScore")?,
        log_loss: number("logLoss")?,
        calibrated_on,
    })
}

fn provenance(v: &Value) -> Result<BTreeMap<String, String>, ModelError> {
    let Value::Object(m) = v else {
        return Err(ModelError::FieldType {
            field: "provenance".into(),
            expected: "an object of strings",
            value: show(v),
        });
    };
    m.iter()
        .map(|(k, x)| {
            let text = match x {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                other => {
                    return Err(ModelError::FieldType {
                        field: format!("provenance.{}", truncate(k)),
                        expected: "a string, number or boolean",
                        value: show(other),
                    })
                }
            };
            Ok((k.clone(), text))
        })
        .collect()
}

/// A JSON value for an error message, cut to a readable length.
fn show(v: &Value) -> String {
    truncate(&v.to_string())
}

/// At most 80 characters of `s` (cut on a character boundary).
fn truncate(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        None => s.to_string(),
        Some((i, _)) => format!("{}…", &s[..i]),
    }
}
