//! [`ModelPackage`]: a folder with `model.onnx` and `manifest.json`, loaded and checked in
//! the documented order (docs/model-packages.md): model readable → manifest checks
//! ([`Manifest::parse`]) → the role the loading seam needs → SHA-256 of the model bytes.
//! The graph check comes later, once a runtime session exists.

use super::error::ModelError;
use super::manifest::{Manifest, Role, ENGINE_VERSION};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The model file's name inside a package folder.
pub const MODEL_FILE: &str = "model.onnx";

/// The manifest's name inside a package folder.
pub const MANIFEST_FILE: &str = "manifest.json";

/// A checked model package: the manifest and the exact model bytes whose digest matched
/// (sessions are built from these bytes, never by reading the file again).
#[derive(Clone, Debug)]
pub struct ModelPackage {
    source: PathBuf,
    manifest: Manifest,
    model: Arc<[u8]>,
}

impl ModelPackage {
    /// Load `dir/model.onnx` and `dir/manifest.json` for a seam that needs `expected_role`.
    pub fn load(dir: &Path, expected_role: Role) -> Result<ModelPackage, ModelError> {
        ModelPackage::load_files(
            &dir.join(MODEL_FILE),
            &dir.join(MANIFEST_FILE),
            expected_role,
        )
    }

    /// Load a model and its manifest from two paths.
    pub fn load_files(
        model: &Path,
        manifest: &Path,
        expected_role: Role,
    ) -> Result<ModelPackage, ModelError> {
        let model_bytes = read(model)?;
        let manifest_bytes = read(manifest)?;
        let mut package =
            ModelPackage::from_bytes(model_bytes, &manifest_bytes, expected_role, ENGINE_VERSION)?;
        package.source = model.to_path_buf();
        Ok(package)
    }

    /// Check a package given as bytes, as an engine of version `engine_version` would.
    pub fn from_bytes(
        model: Vec<u8>,
        manifest: &[u8],
        expected_role: Role,
        engine_version: &str,
    ) -> Result<ModelPackage, ModelError> {
        let manifest = Manifest::parse_for_engine(manifest, engine_version)?;
        if manifest.model_role != expected_role {
            return Err(ModelError::RoleMismatch {
                expected: expected_role.as_str(),
                found: manifest.model_role.as_str(),
            });
        }
        let actual = sha256_hex(&model);
        if actual != manifest.model_sha256 {
            return Err(ModelError::Digest {
                expected: manifest.model_sha256.clone(),
                actual,
            });
        }
        Ok(ModelPackage {
            source: PathBuf::new(),
            manifest,
            model: model.into(),
        })
    }

    /// The checked manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The model bytes (their SHA-256 is the manifest's `modelSha256`).
    pub fn model_bytes(&self) -> &Arc<[u8]> {
        &self.model
    }

    /// The model file's path (empty for a package built from bytes).
    pub fn source(&self) -> &Path {
        &self.source
    }
}

/// SHA-256 of `bytes` as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn read(path: &Path) -> Result<Vec<u8>, ModelError> {
    std::fs::read(path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            ModelError::MissingFile {
                path: path.to_path_buf(),
            }
        } else {
            ModelError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    })
}
