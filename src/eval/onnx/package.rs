//! [`ModelPackage`]: a folder with `model.onnx` and `manifest.json` (and `model.onnx.data`
//! when the model keeps its weights outside, as torch ≥ 2.13 exports by default), loaded
//! and checked in the documented order (docs/model-packages.md): model readable → manifest
//! checks ([`Manifest::parse`]) → the role the loading seam needs → SHA-256 of the model
//! bytes → external data. The graph check comes later, once a runtime session exists.
//!
//! Every file is read once, bounded, and only if it is a regular file (a symlink to
//! `/dev/zero` fails at once instead of reading until memory runs out); sessions are built
//! from the checked bytes, external data included, so nothing is resolved against the
//! current directory and nothing changes between the digest check and the run.

use super::error::ModelError;
use super::external_data::external_tensors;
use super::manifest::{Manifest, Role, ENGINE_VERSION};
pub use crate::digest::sha256_hex;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The model file's name inside a package folder.
pub const MODEL_FILE: &str = "model.onnx";

/// The manifest's name inside a package folder.
pub const MANIFEST_FILE: &str = "manifest.json";

/// The only external-data file a model may name: `model.onnx.data` beside `model.onnx`
/// (torch's default name for `model.onnx`).
pub const DATA_FILE: &str = "model.onnx.data";

/// Largest `model.onnx` read: protobuf's own 2 GiB message limit.
pub const MAX_MODEL_BYTES: u64 = 2 << 30;

/// Largest `model.onnx.data` read (it is held in memory for the runtime).
pub const MAX_DATA_BYTES: u64 = 16 << 30;

/// Largest `manifest.json` read.
pub const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// The roles one loading seam takes, with the name its refusal gives.
#[derive(Clone, Copy)]
struct RoleSet {
    roles: &'static [Role],
    name: &'static str,
}

impl RoleSet {
    /// A leaf of the search: a value or a chance-collapse package.
    const LEAF: RoleSet = RoleSet {
        roles: &[Role::PositionValue, Role::ChanceCollapse],
        name: "position-value or chance-collapse",
    };

    /// One role.
    fn one(role: Role) -> RoleSet {
        let roles: &'static [Role] = match role {
            Role::PositionValue => &[Role::PositionValue],
            Role::ChanceCollapse => &[Role::ChanceCollapse],
            Role::MovePrerank => &[Role::MovePrerank],
        };
        RoleSet {
            roles,
            name: role.as_str(),
        }
    }
}

/// A checked model package: the manifest and the exact model bytes whose digest matched
/// (sessions are built from these bytes, never by reading the file again).
#[derive(Clone, Debug)]
pub struct ModelPackage {
    source: PathBuf,
    manifest: Manifest,
    model: Arc<[u8]>,
    external: Option<Arc<[u8]>>,
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

    /// Load the package in `dir` for a leaf of the search: a `position-value` package, or a
    /// `chance-collapse` one (an after-state's score either way, docs/search.md §4.6); the
    /// caller branches on [`Manifest::model_role`]. Any other role is refused, naming both.
    /// The manifest is read and checked once.
    pub fn load_leaf(dir: &Path) -> Result<ModelPackage, ModelError> {
        ModelPackage::load_files_for(
            &dir.join(MODEL_FILE),
            &dir.join(MANIFEST_FILE),
            RoleSet::LEAF,
        )
    }

    /// Load a model and its manifest from two paths.
    pub fn load_files(
        model: &Path,
        manifest: &Path,
        expected_role: Role,
    ) -> Result<ModelPackage, ModelError> {
        ModelPackage::load_files_for(model, manifest, RoleSet::one(expected_role))
    }

    /// [`ModelPackage::load_files`] for a seam that takes any role of `roles`.
    fn load_files_for(
        model: &Path,
        manifest: &Path,
        roles: RoleSet,
    ) -> Result<ModelPackage, ModelError> {
        let model_bytes = read(model, MAX_MODEL_BYTES)?;
        let manifest_bytes = read(manifest, MAX_MANIFEST_BYTES)?;
        let mut package =
            ModelPackage::from_bytes_for(model_bytes, &manifest_bytes, roles, ENGINE_VERSION)?;
        package.source = model.to_path_buf();
        // External data is resolved relative to the model's folder, never the current
        // directory.
        let dir = match model.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        package.attach_external_data(|| read(&dir.join(DATA_FILE), MAX_DATA_BYTES))?;
        Ok(package)
    }

    /// Check the model's external-data references and, when it has any, load
    /// `model.onnx.data` with `read_data` and check it against `modelDataSha256`.
    fn attach_external_data(
        &mut self,
        read_data: impl FnOnce() -> Result<Vec<u8>, ModelError>,
    ) -> Result<(), ModelError> {
        let tensors = external_tensors(&self.model)?;
        if let Some(t) = tensors.iter().find(|t| t.location != DATA_FILE) {
            return Err(ModelError::ExternalDataLocation {
                tensor: t.name.clone(),
                location: t.location.clone(),
            });
        }
        if tensors.is_empty() {
            return Ok(());
        }
        let data = read_data()?;
        let actual = sha256_hex(&data);
        match &self.manifest.model_data_sha256 {
            None => return Err(ModelError::ExternalDataUndeclared { actual }),
            Some(expected) if *expected != actual => {
                return Err(ModelError::DataDigest {
                    expected: expected.clone(),
                    actual,
                })
            }
            Some(_) => {}
        }
        self.external = Some(data.into());
        Ok(())
    }

    /// Like [`ModelPackage::from_bytes`], with the bytes of `model.onnx.data` for a model
    /// that keeps its weights there (`None`: the model must name no external data).
    pub fn from_bytes_with_data(
        model: Vec<u8>,
        data: Option<Vec<u8>>,
        manifest: &[u8],
        expected_role: Role,
        engine_version: &str,
    ) -> Result<ModelPackage, ModelError> {
        let mut package = ModelPackage::from_bytes(model, manifest, expected_role, engine_version)?;
        package.attach_external_data(|| {
            data.ok_or_else(|| ModelError::MissingFile {
                path: PathBuf::from(DATA_FILE),
            })
        })?;
        Ok(package)
    }

    /// Check a package given as bytes, as an engine of version `engine_version` would.
    pub fn from_bytes(
        model: Vec<u8>,
        manifest: &[u8],
        expected_role: Role,
        engine_version: &str,
    ) -> Result<ModelPackage, ModelError> {
        ModelPackage::from_bytes_for(model, manifest, RoleSet::one(expected_role), engine_version)
    }

    /// [`ModelPackage::from_bytes`] for a seam that takes any role of `roles`.
    fn from_bytes_for(
        model: Vec<u8>,
        manifest: &[u8],
        roles: RoleSet,
        engine_version: &str,
    ) -> Result<ModelPackage, ModelError> {
        let manifest = Manifest::parse_for_engine(manifest, engine_version)?;
        if !roles.roles.contains(&manifest.model_role) {
            return Err(ModelError::RoleMismatch {
                expected: roles.name,
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
            external: None,
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

    /// The checked bytes of `model.onnx.data` when the model keeps its weights there.
    pub fn external_data(&self) -> Option<&Arc<[u8]>> {
        self.external.as_ref()
    }

    /// The model file's path (empty for a package built from bytes).
    pub fn source(&self) -> &Path {
        &self.source
    }
}

/// Read a package file: a regular file (a symlink is followed, but its target must be a
/// regular file, so `/dev/zero` or a FIFO is refused before a byte is read) of at most
/// `limit` bytes (checked while reading too, for a file that grows).
fn read(path: &Path, limit: u64) -> Result<Vec<u8>, ModelError> {
    use std::io::Read;
    let io = |source: std::io::Error| {
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
    };
    // Checked before opening too: opening a FIFO for reading would wait for a writer.
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(ModelError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ModelError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    if meta.len() > limit {
        return Err(ModelError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ModelError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}
