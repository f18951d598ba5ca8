//! An inner node of the shared walk.

use crate::board::Position;

/// An inner node of the walk: a position reached by spending `spent` (a multiset index),
/// with the from-square and the squares touched (`footprint`) of the move that first
/// reached it, which let the next level skip children another node also reaches (see
/// `Walk::expand_leaves`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) pos: Position,
    pub(super) spent: u8,
    pub(super) last_from: u8,
    pub(super) last_footprint: u64,
}
