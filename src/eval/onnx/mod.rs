//! ONNX models and model packages (docs/architecture.md "Contracts", docs/model-packages.md).
//!
//! * [`Manifest`] and [`ModelPackage`]: `manifest.json` + `model.onnx`, every field checked
//!   in the documented order, the role the loading seam needs, the model's SHA-256. Pure
//!   Rust: available without the `onnx` feature.
//! * With the `onnx` feature (default): the runtime ([`environment`], loaded at run time from
//!   `ORT_DYLIB_PATH` or beside the executable, see `.ci/install-onnxruntime`), graph-checked
//!   session pools, [`FeatureModel`] (a [`BatchEvaluator`](crate::eval::BatchEvaluator) for
//!   position-value models) and [`CollapseModel`] (chance-collapse models).

mod error;
mod external_data;
mod manifest;
mod mlp_export;
mod mlp_graph;
mod mlp_rows;
mod native_model;
mod package;
mod version;
mod wire;

/// The methods a model type shares with every other: loading its package (of one role),
/// the chunk size, and reading the package, manifest and schema back. `$t` is a struct
/// with one field `core: ModelCore`.
#[cfg(feature = "onnx")]
macro_rules! model_methods {
    ($t:ident, $role:expr, $role_name:literal) => {
        #[doc = concat!("Load the package in `dir` (it must be role `", $role_name, "`) and open its first")]
        /// session.
        pub fn load(dir: &Path) -> Result<$t, ModelError> {
            $t::from_package(ModelPackage::load(dir, $role)?)
        }

        #[doc = concat!("Use a checked package (refused unless role `", $role_name, "`).")]
        pub fn from_package(package: ModelPackage) -> Result<$t, ModelError> {
            Ok($t {
                core: ModelCore::new(package, $role)?,
            })
        }

        /// The same model running at most `rows` rows per session call (at least 1).
        pub fn with_chunk_size(mut self, rows: usize) -> $t {
            self.core.set_chunk_size(rows);
            self
        }

        /// Rows per session call at most.
        pub fn chunk_size(&self) -> usize {
            self.core.chunk_size()
        }

        /// The package.
        pub fn package(&self) -> &ModelPackage {
            self.core.package()
        }

        /// The manifest.
        pub fn manifest(&self) -> &Manifest {
            self.core.manifest()
        }

        /// The feature schema the model reads.
        pub fn schema(&self) -> &'static dyn FeatureSchema {
            self.core.schema()
        }
    };
}

#[cfg(feature = "onnx")]
mod collapse_model;
#[cfg(feature = "onnx")]
mod feature_model;
#[cfg(feature = "onnx")]
mod inference;
#[cfg(feature = "onnx")]
mod prerank_model;
#[cfg(feature = "onnx")]
mod runtime;
#[cfg(feature = "onnx")]
mod session_pool;

pub use error::ModelError;
pub use external_data::{external_tensors, ExternalTensor};
pub use manifest::{
    Calibration, Manifest, ManifestVersion, Role, DEFAULT_INPUT_NAME, DEFAULT_OUTPUT_NAME,
    ENGINE_VERSION, SIDE_TO_MOVE,
};
pub use mlp_graph::{read_mlp, Dense, MlpGraph, MlpGraphError};
pub use native_model::{NativeModel, NativeModelError};
pub use package::{
    sha256_hex, ModelPackage, DATA_FILE, MANIFEST_FILE, MAX_DATA_BYTES, MAX_MANIFEST_BYTES,
    MAX_MODEL_BYTES, MODEL_FILE,
};
pub use version::{Comparator, EngineRequirement, EngineVersion, RequirementError, VersionError};
pub use wire::WireError;

#[cfg(feature = "onnx")]
pub use collapse_model::CollapseModel;
#[cfg(feature = "onnx")]
pub use feature_model::FeatureModel;
#[cfg(feature = "onnx")]
pub use inference::DEFAULT_CHUNK_SIZE;
#[cfg(feature = "onnx")]
pub use prerank_model::PrerankModel;
#[cfg(feature = "onnx")]
pub use runtime::{environment, RUNTIME_FILE_NAME, RUNTIME_RELATIVE_PATH, RUNTIME_VERSION};
#[cfg(feature = "onnx")]
pub use session_pool::{GraphContract, PooledSession, SessionPool, SessionRunError};
