//! [`ModelError`]: every reason a model package, its manifest, its graph or the model runtime
//! is refused. Each variant names the field, file or value at fault (fail-closed loading,
//! docs/model-packages.md).

use std::path::PathBuf;

/// Why a model package could not be loaded or a session could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A file of the package is missing.
    #[error("model package file missing: {path} (a package is a folder with model.onnx and manifest.json)")]
    MissingFile {
        /// The file that is not there.
        path: PathBuf,
    },
    /// A file of the package exists but could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The manifest is not a JSON object.
    #[error("manifest.json is not a JSON object: {0}")]
    ManifestJson(String),
    /// `manifestVersion` names a version this engine does not read.
    #[error("manifestVersion {value} is not supported (expected \"1.0.0\" or \"1.1.0\")")]
    ManifestVersion {
        /// The value found, as JSON.
        value: String,
    },
    /// A required field is absent.
    #[error("manifest field {field} is required")]
    MissingField {
        /// The field's JSON name.
        field: &'static str,
    },
    /// A field has the wrong JSON type.
    #[error("manifest field {field} must be {expected}, got {value}")]
    FieldType {
        /// The field's JSON name (`provenance.KEY` for a provenance entry).
        field: String,
        /// What it must be.
        expected: &'static str,
        /// The value found, as JSON.
        value: String,
    },
    /// A string field is empty or only whitespace.
    #[error("manifest field {field} must not be blank")]
    BlankField {
        /// The field's JSON name.
        field: &'static str,
    },
    /// `modelSha256` (or `modelDataSha256`) is not 64 hexadecimal digits.
    #[error("manifest field {field} must be 64 hexadecimal digits, got {value:?}")]
    Sha256Format {
        /// The field's JSON name.
        field: &'static str,
        /// The value found.
        value: String,
    },
    /// `modelRole` is not one of the known roles.
    #[error("manifest field modelRole {value:?} is unknown (expected position-value, chance-collapse or move-prerank)")]
    UnknownRole {
        /// The value found.
        value: String,
    },
    /// A 1.0.0 manifest carries a 1.1.0-only field.
    #[error("manifest field {field} is not allowed in manifestVersion 1.0.0 (it needs 1.1.0)")]
    LegacyField {
        /// The field's JSON name.
        field: &'static str,
    },
    /// `featureSchema` does not name a schema this engine extracts.
    #[error("manifest field featureSchema {value:?} is not a known feature schema")]
    UnknownSchema {
        /// The value found.
        value: String,
    },
    /// `featureCount` is not a whole, non-negative number.
    #[error("manifest field featureCount must be a whole number, got {value}")]
    FeatureCount {
        /// The value found, as JSON.
        value: String,
    },
    /// `featureCount` differs from the schema's width.
    #[error("manifest field featureCount {feature_count} does not match the width {width} of featureSchema {schema}")]
    FeatureCountMismatch {
        /// The schema id.
        schema: String,
        /// The schema's column count.
        width: usize,
        /// The manifest's featureCount.
        feature_count: u64,
    },
    /// `perspective` is not `side-to-move`.
    #[error("manifest field perspective {value:?} is not supported (only \"side-to-move\")")]
    Perspective {
        /// The value found.
        value: String,
    },
    /// `engineCompatibility` does not follow the comparator grammar.
    #[error("manifest field engineCompatibility {value:?} is malformed: {reason}")]
    EngineCompatibilitySyntax {
        /// The value found.
        value: String,
        /// What is wrong with it.
        reason: super::version::RequirementError,
    },
    /// `engineCompatibility` does not admit this engine's version.
    #[error("manifest field engineCompatibility {requirement:?} does not admit engine version {version}")]
    EngineIncompatible {
        /// The requirement.
        requirement: String,
        /// The host engine's version.
        version: String,
    },
    /// The package's role is not the role of the seam that loads it.
    #[error("manifest field modelRole is {found} but this seam loads a {expected} model")]
    RoleMismatch {
        /// The role the loader needs.
        expected: &'static str,
        /// The manifest's role.
        found: &'static str,
    },
    /// The SHA-256 of model.onnx differs from `modelSha256`.
    #[error("model.onnx digest mismatch: manifest field modelSha256 is {expected} but the file's SHA-256 is {actual}")]
    Digest {
        /// The manifest's digest (lower case).
        expected: String,
        /// The file's digest (lower case).
        actual: String,
    },
    /// A package file is not a regular file (a device, pipe or folder, directly or through
    /// a symlink).
    #[error("{path} is not a regular file; a model package holds plain files")]
    NotRegular {
        /// The file.
        path: PathBuf,
    },
    /// A package file is larger than the engine reads.
    #[error("{path} is larger than {limit} bytes")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The bound.
        limit: u64,
    },
    /// `model.onnx` is not a protobuf the engine can walk for external data.
    #[error("{0}")]
    Wire(#[from] super::wire::WireError),
    /// A tensor keeps its data in a file other than `model.onnx.data`.
    #[error("model.onnx stores tensor {tensor:?} in {location:?}; the engine reads external data only from model.onnx.data beside model.onnx. Fix: re-export with the weights saved to model.onnx.data (torch's default) or embedded in model.onnx")]
    ExternalDataLocation {
        /// The tensor's name.
        tensor: String,
        /// The location it names.
        location: String,
    },
    /// The model keeps its weights in `model.onnx.data` but the manifest does not cover it.
    #[error("model.onnx keeps its weights in model.onnx.data, which the manifest's digests do not cover. Fix: add \"modelDataSha256\": \"{actual}\" (the SHA-256 of model.onnx.data) to manifest.json, or re-export with the weights embedded in model.onnx")]
    ExternalDataUndeclared {
        /// The SHA-256 of the side file as found.
        actual: String,
    },
    /// The SHA-256 of model.onnx.data differs from `modelDataSha256`.
    #[error("model.onnx.data digest mismatch: manifest field modelDataSha256 is {expected} but the file's SHA-256 is {actual}")]
    DataDigest {
        /// The manifest's digest (lower case).
        expected: String,
        /// The file's digest (lower case).
        actual: String,
    },
    /// The ONNX Runtime library was not found or could not be loaded.
    #[error("ONNX Runtime not available: {detail}. Set ORT_DYLIB_PATH to libonnxruntime.so.1.32.0 (`bash .ci/install-onnxruntime` installs it under .tools/onnxruntime and prints that path), or put the library beside the executable")]
    RuntimeMissing {
        /// What was tried and what failed.
        detail: String,
    },
    /// The runtime refused the model (not valid ONNX, unsupported operator, …).
    #[error("ONNX Runtime could not open the model: {0}")]
    Session(String),
    /// The graph's inputs or outputs break the package contract (the graph check).
    #[error("graph check failed for {field}: {detail}")]
    Graph {
        /// The manifest field or contract item at fault: `inputName`, `outputName`,
        /// `input count`, `output count`, `input type`, `output type`, `featureCount`,
        /// `batch dimension`, `output width`.
        field: &'static str,
        /// What the graph declares.
        detail: String,
    },
}
