//! The label kinds (docs/labels.md) and their names.

/// What a label is (docs/labels.md has the definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelKind {
    /// The afterstate value of a position whose mover has just moved: the exact expectation
    /// over the opponent's 56 rolls of the opponent's best reply's leaf value, from the view
    /// of the side that just moved.
    A1,
    /// [`LabelKind::A1`] one ply deeper: the opponent's best reply is judged by its `p1`.
    A2,
    /// The pre-roll value of a position whose side to move is about to roll: the exact
    /// expectation over its 56 rolls of its best turn's leaf value, from its own view.
    P1,
    /// [`LabelKind::P1`] one ply deeper: each turn is judged by its `a1`.
    P2,
    /// For a rolled position: every distinct legal afterstate (or the pre-ranker's top K)
    /// with its `a1` and its 56 per-roll values.
    Candidates,
}

impl LabelKind {
    /// Every kind, in the order of the command line's list.
    pub const ALL: [LabelKind; 5] = [
        LabelKind::A1,
        LabelKind::A2,
        LabelKind::P1,
        LabelKind::P2,
        LabelKind::Candidates,
    ];

    /// The kind's name, which is also its value column's name (`a1`, …, `candidates`).
    pub fn name(self) -> &'static str {
        match self {
            LabelKind::A1 => "a1",
            LabelKind::A2 => "a2",
            LabelKind::P1 => "p1",
            LabelKind::P2 => "p2",
            LabelKind::Candidates => "candidates",
        }
    }

    /// The kind called `name` (exact, lower case), if any.
    pub fn parse(name: &str) -> Option<LabelKind> {
        LabelKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the kind needs the rolled dice of its position (only `candidates`: the other
    /// kinds are values before a roll, and ignore any dice).
    pub fn needs_dice(self) -> bool {
        self == LabelKind::Candidates
    }

    /// Whether the value is from the view of the side that just moved (`a1`, `a2`, and a
    /// candidate's `a1`), rather than of the side to move (`p1`, `p2`).
    pub fn afterstate(self) -> bool {
        matches!(self, LabelKind::A1 | LabelKind::A2 | LabelKind::Candidates)
    }
}

impl std::fmt::Display for LabelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
