//! The value net `best-net` ships with: generation `dt1-p1` of the learning loop (README
//! "Generations against `best-v1`"), compiled into the binary so that the bot needs no file,
//! no download and no ONNX Runtime (the native forward pass reads the same `model.onnx`).
//!
//! What it is: a 20 → 32 → 32 → 1 MLP on `dice-terms-v1` features, trained on 87,482
//! positions of 3000 games of `best` against itself (`selfplay --seed 300`), each labelled
//! `p1` (the dice-aware one-roll expectimax value), 30 epochs; holdout loss 0.6845 against
//! 0.6923 for the mean. Its package (manifest with the SHA-256, the model and its training
//! report) is committed in `models/dt1-p1/`; the same checks as a package on disk run
//! when it is loaded.

use crate::eval::onnx::{ModelError, ModelPackage, NativeModel, NativeModelError, Role};

/// The embedded package's folder in the repository.
pub const SHIPPED_MODEL_DIR: &str = "models/dt1-p1";

static MODEL: &[u8] = include_bytes!("../../models/dt1-p1/model.onnx");
static MANIFEST: &[u8] = include_bytes!("../../models/dt1-p1/manifest.json");

/// The embedded `dt1-p1` package, checked (digest, role, engine range) as
/// [`ModelPackage::load`] checks one on disk.
pub fn shipped_package() -> Result<ModelPackage, ModelError> {
    ModelPackage::from_bytes(
        MODEL.to_vec(),
        MANIFEST,
        Role::PositionValue,
        env!("CARGO_PKG_VERSION"),
    )
}

/// The embedded `dt1-p1` net on the native forward pass.
pub fn shipped_model() -> Result<NativeModel, NativeModelError> {
    NativeModel::from_package(shipped_package()?)
}
