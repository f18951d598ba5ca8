//! Arbitrary bytes as a model manifest: parsing never panics, every refusal names a field,
//! and a package built from an accepted manifest checks the model digest. The same bytes as
//! a model: the external-data walk never panics.
#![no_main]

use dicechess::eval::onnx::{Manifest, ModelPackage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = dicechess::eval::onnx::external_tensors(data) {
        assert!(!e.to_string().is_empty());
    }
    match Manifest::parse(data) {
        Ok(m) => {
            // An accepted manifest names a schema of the declared width.
            assert_eq!(m.schema().width(), m.feature_count);
            // The digest is enforced: these model bytes almost surely do not match it.
            let model = data.iter().rev().copied().collect::<Vec<u8>>();
            let r = ModelPackage::from_bytes(model, data, m.model_role, dicechess::eval::onnx::ENGINE_VERSION);
            if let Err(e) = r {
                assert!(!e.to_string().is_empty());
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
