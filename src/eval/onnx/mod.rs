//! ONNX models and model packages (docs/architecture.md "Contracts", docs/model-packages.md).
//!
//! * [`Manifest`] and [`ModelPackage`]: `manifest.json` + `model.onnx`, every field checked
//!   in the documented order, the role the loading seam needs, the model's SHA-256. Pure
//!   Rust: available without the `onnx` feature.
//! * With the `onnx` feature (default): the runtime ([`runtime`], loaded at run time from
//!   `ORT_DYLIB_PATH` or beside the executable, see `.ci/install-onnxruntime`), graph-checked
//!   session pools, [`FeatureModel`] (a [`BatchEvaluator`](crate::eval::BatchEvaluator) for
//!   position-value models) and [`CollapseModel`] (chance-collapse models).

mod error;
pub mod external_data;
mod manifest;
mod package;

#[cfg(feature = "onnx")]
mod collapse_model;
#[cfg(feature = "onnx")]
mod feature_model;
#[cfg(feature = "onnx")]
mod inference;
#[cfg(feature = "onnx")]
mod prerank_model;
#[cfg(feature = "onnx")]
pub mod runtime;
#[cfg(feature = "onnx")]
mod session_pool;

pub use error::ModelError;
pub use manifest::{
    Calibration, Comparator, EngineRequirement, EngineVersion, Manifest, ManifestVersion, Role,
    DEFAULT_INPUT_NAME, DEFAULT_OUTPUT_NAME, ENGINE_VERSION, SIDE_TO_MOVE,
};
pub use package::{
    sha256_hex, ModelPackage, DATA_FILE, MANIFEST_FILE, MAX_DATA_BYTES, MAX_MANIFEST_BYTES,
    MAX_MODEL_BYTES, MODEL_FILE,
};

#[cfg(feature = "onnx")]
pub use collapse_model::CollapseModel;
#[cfg(feature = "onnx")]
pub use feature_model::{win_probability_to_score, FeatureModel, SCORE_SCALE};
#[cfg(feature = "onnx")]
pub use inference::DEFAULT_CHUNK_SIZE;
#[cfg(feature = "onnx")]
pub use prerank_model::PrerankModel;
#[cfg(feature = "onnx")]
pub use session_pool::{GraphContract, PooledSession, SessionPool};
