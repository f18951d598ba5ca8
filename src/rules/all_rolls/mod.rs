//! Every roll's end-of-turn positions in one shared walk (docs/rules.md §5–§6).
//!
//! A chance node needs, for each of the 56 rolls, the distinct positions its legal turns end
//! in. Walking each roll from scratch repeats most of the work: the first micro-moves of
//! `{P,N,B}` are those of `{P,N,Q}` too. [`expand_all_rolls`] walks the micro-move tree once,
//! with *every* piece type payable, and labels each node with the multiset `S` of dice its
//! path has spent. A node is reachable under a roll `R` exactly when `S ⊆ R`, so one walk
//! answers all rolls:
//!
//! * `R` is a king capture when some capturing micro-move's `S ∪ {face}` fits in `R`;
//! * otherwise the most dice `R` can spend is `D*(R) = max |S|` over the nodes with `S ⊆ R`
//!   (a deepest node can never be extended, so it is complete), and the legal end states are
//!   those of the nodes with `S ⊆ R` and `|S| = D*(R)` — the maximum dice rule;
//! * `D*(R) = 0` is a pass.
//!
//! Nodes are merged by (position, `S`), so `A,B` and `B,A` are expanded once, and the end
//! states are kept in one bucket per `S` (84 multisets of at most three dice). A roll whose
//! end states come from a single bucket (every roll with `D* = 3`, and the rolls whose other
//! dice are unusable — the ADEP classes of docs/rules.md §6) reads that bucket in place; only
//! a roll that draws on two or three buckets gets a merged copy.

mod footprint;
mod node;
mod pawn_targets;
mod quiet_move;
mod roll_sets;
mod tables;
mod walk;

pub use roll_sets::{RollOutcome, RollSets};
pub use walk::{expand_all_rolls, expand_all_rolls_budgeted};
