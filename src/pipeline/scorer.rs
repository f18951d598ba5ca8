//! What scores the rows: a built-in evaluator or a model package.

use crate::batch::PositionBatch;
use crate::eval::features::FeatureSchema;
use crate::eval::{BatchEvaluator, EvalError};

/// What scores the rows.
pub enum Scorer {
    /// A built-in evaluator.
    Plain(Box<dyn BatchEvaluator>),
    /// A model package.
    #[cfg(feature = "onnx")]
    Model(Box<crate::eval::onnx::FeatureModel>),
}

impl Scorer {
    /// The evaluator's id (file metadata).
    pub fn id(&self) -> String {
        match self {
            Scorer::Plain(e) => e.id(),
            #[cfg(feature = "onnx")]
            Scorer::Model(m) => m.id(),
        }
    }

    /// What identifies the scores for resuming (a model by id and SHA-256).
    pub fn record_id(&self) -> String {
        match self {
            Scorer::Plain(e) => e.id(),
            #[cfg(feature = "onnx")]
            Scorer::Model(m) => format!("model:{}@{}", m.id(), m.manifest().model_sha256),
        }
    }

    /// The model's feature schema (`None` for a built-in evaluator).
    pub fn model_schema(&self) -> Option<&'static dyn FeatureSchema> {
        match self {
            Scorer::Plain(_) => None,
            #[cfg(feature = "onnx")]
            Scorer::Model(m) => Some(m.schema()),
        }
    }

    /// Scores of `batch`; `features` are the rows' already extracted features, which a
    /// model of the same schema reads instead of extracting them again.
    #[cfg_attr(not(feature = "onnx"), allow(unused_variables))]
    pub fn score(
        &self,
        batch: &PositionBatch,
        features: Option<(&'static dyn FeatureSchema, &ndarray::Array2<f32>)>,
    ) -> Result<Vec<f32>, EvalError> {
        match self {
            Scorer::Plain(e) => {
                let mut out = vec![0.0; batch.len()];
                e.evaluate(batch, &mut out)?;
                Ok(out)
            }
            #[cfg(feature = "onnx")]
            Scorer::Model(m) => match features {
                Some((s, f)) if s.id() == m.schema().id() => Ok(m
                    .predict_features(f.view())?
                    .into_iter()
                    .map(crate::eval::win_probability_to_score)
                    .collect()),
                _ => {
                    let mut out = vec![0.0; batch.len()];
                    m.evaluate(batch, &mut out)?;
                    Ok(out)
                }
            },
        }
    }
}
