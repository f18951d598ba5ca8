//! The turn tree: legal paths as a prefix tree keyed by micro-move.

use super::{legal_paths, Budget, Budgeted, MicroMove, TurnGenerator, TurnPath};
use crate::board::Position;

/// A prefix tree of the legal turn paths: each node's children are the micro-moves that keep
/// the prefix on some legal path, in path order; a leaf ends a legal turn. (No legal path is
/// a prefix of another, so a node with children never ends a turn.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnTree {
    /// `(micro-move, subtree)` in first-appearance order.
    pub children: Vec<(MicroMove, TurnTree)>,
}

impl TurnTree {
    /// The tree of `pos`'s legal paths; empty for a pass.
    pub fn new(pos: &Position) -> TurnTree {
        TurnTree::from_paths(&legal_paths(pos))
    }

    /// [`TurnTree::new`] with the enumeration charged to `budget` (one unit per
    /// move-generation call and per examined micro-move); nothing is built when it runs out.
    pub fn budgeted(pos: &Position, budget: &mut Budget) -> Budgeted<TurnTree> {
        let mut paths = Vec::new();
        match TurnGenerator::new().legal_paths_budgeted(pos, budget, &mut paths) {
            Budgeted::Complete((), used) => Budgeted::Complete(TurnTree::from_paths(&paths), used),
            Budgeted::Incomplete(used) => Budgeted::Incomplete(used),
        }
    }

    /// The tree of `paths` (in their order).
    fn from_paths(paths: &[TurnPath]) -> TurnTree {
        let mut root = TurnTree::default();
        for path in paths {
            let mut node = &mut root;
            for m in path.moves() {
                let i = match node.children.iter().position(|(c, _)| *c == m) {
                    Some(i) => i,
                    None => {
                        node.children.push((m, TurnTree::default()));
                        node.children.len() - 1
                    }
                };
                node = &mut node.children[i].1;
            }
        }
        root
    }

    /// The subtree after `prefix`, if the prefix starts some legal path.
    pub fn follow(&self, prefix: &[MicroMove]) -> Option<&TurnTree> {
        prefix.iter().try_fold(self, |node, m| {
            node.children.iter().find(|(c, _)| c == m).map(|(_, t)| t)
        })
    }

    /// Whether this node ends a legal turn (a leaf).
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }

    /// The tree as JSON keyed by UCI, children in UCI (string) order; a leaf is `{}`. This is
    /// the play server's `MoveTree` byte for byte once written compactly: its encoder sorts
    /// each node's children by their UCI (`wire/Codecs.scala`, "sorted for a stable wire").
    pub fn to_json(&self) -> serde_json::Value {
        let mut children: Vec<(String, &TurnTree)> =
            self.children.iter().map(|(m, t)| (m.uci(), t)).collect();
        children.sort_by(|a, b| a.0.cmp(&b.0));
        serde_json::Value::Object(
            children
                .into_iter()
                .map(|(uci, t)| (uci, t.to_json()))
                .collect(),
        )
    }
}
