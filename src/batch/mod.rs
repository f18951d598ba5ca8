//! Struct-of-arrays batches of positions (docs/architecture.md "Data model"): the columns every
//! batch kernel, feature extractor and evaluator works on.

mod leaf_batch;
mod position_batch;

pub use leaf_batch::{LeafBatch, Segment};
pub use position_batch::rows_as_words;
pub use position_batch::PositionBatch;
