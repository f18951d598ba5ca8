//! Exact searched labels of single positions (docs/labels.md): the afterstate values `a1`
//! and `a2`, the pre-roll values `p1` and `p2`, and the per-candidate distributions of a
//! rolled position — the one-position computations behind the label factory
//! (`pipeline::label`, `dicechess label`).
//!
//! Every label is exact: the shared all-roll expansion gives each of the 56 rolls' distinct
//! end states, one evaluator call scores a chance node's leaves, and nothing is pruned (a
//! label is a value, not a decision, so no bound may stand in for it). Positions whose label
//! would cost more than a work budget are refused ([`LabelError::WorkBudget`]) instead of
//! exhausting memory.
//!
//! ```
//! use dicechess::board::Position;
//! use dicechess::eval::Material;
//! use dicechess::search::{Labeller, Work, LABEL_WIN};
//! use std::sync::Arc;
//!
//! let labeller = Labeller::new(Arc::new(Material));
//! // White just moved its bishop to f7, next to the black king; Black rolls. Every roll
//! // with a pawn, knight or queen lets Black... but the king itself can take f7 on a 6.
//! let after = Position::from_dfen("rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1")?;
//! let a1 = labeller.a1(&after, &Work::new(1_000_000))?;
//! assert!(a1 < LABEL_WIN && a1 > -LABEL_WIN);
//! // p1 of the same board is a1 from the other side's view.
//! let p1 = labeller.p1(&after, &Work::new(1_000_000))?;
//! assert_eq!(p1, -a1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod candidates;
mod kind;
mod labeller;

pub use candidates::{CandidateLabel, TopK};
pub use kind::LabelKind;
pub use labeller::{
    default_work_units, roll_dice, Labeller, PerRoll, Work, EXPANSION_UNITS, LABEL_LOSS, LABEL_WIN,
};

use crate::eval::EvalError;

/// Why a position could not be labelled.
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// The label needs more work than the position's budget allows.
    #[error("the label needs more than {limit} work units (raise --max-work)")]
    WorkBudget {
        /// The budget's limit.
        limit: u64,
    },
    /// One chance node's expansion needs more than [`EXPANSION_UNITS`] (its memory bound):
    /// a position no game reaches (nine queens rolled QQQ, say).
    #[error("one chance node needs more than {units} work units to expand")]
    ExpansionTooLarge {
        /// The bound.
        units: u64,
    },
    /// `candidates` needs a rolled position.
    #[error("dice: the candidates of a position need its rolled dice (a 7th DFEN field)")]
    NoDice,
    /// The leaf evaluator (or the pre-ranker) failed.
    #[error(transparent)]
    Eval(#[from] EvalError),
}
