//! Arbitrary bytes as a model manifest: parsing never panics, every refusal names a field,
//! and a package built from an accepted manifest checks the model digest. The same bytes as
//! a model: the external-data walk and the native MLP reader never panic, and an MLP the
//! reader accepts runs a forward pass of its own width.
#![no_main]

use dicechess::eval::onnx::{Manifest, ModelPackage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = dicechess::eval::onnx::external_tensors(data) {
        assert!(!e.to_string().is_empty());
    }
    match dicechess::eval::onnx::read_mlp(data, "features", "value") {
        Ok(g) => {
            // Bounded inputs only: a hostile graph may declare a huge width.
            if g.inputs() <= 4096 && g.layers.iter().all(|l| l.outputs <= 4096) {
                let x = vec![0.5f32; g.inputs()];
                let _ = g.forward(&x, &mut [Vec::new(), Vec::new()]);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
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
