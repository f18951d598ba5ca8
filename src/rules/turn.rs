//! Legal turn paths under the maximum dice rule (rules.md §5).

use super::budget::{Budget, Budgeted, Meter, Unmetered};
use super::{generate_into, MicroMove, MoveList};
use crate::board::Position;
use dicechess_kernels::PieceType;
use std::fmt;
use std::ops::ControlFlow;

/// One turn path: 1 to 3 micro-moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnPath {
    moves: [MicroMove; 3],
    len: u8,
    cost: u8,
    king_capture: bool,
}

impl TurnPath {
    /// The micro-moves, in playing order.
    #[inline]
    pub fn moves(&self) -> &[MicroMove] {
        &self.moves[..self.len as usize]
    }

    /// Dice spent (castling 2, any other micro-move 1).
    #[inline]
    pub fn cost(&self) -> u8 {
        self.cost
    }

    /// Whether the last micro-move captures the enemy king (the game ends there).
    #[inline]
    pub fn captures_king(&self) -> bool {
        self.king_capture
    }

    /// The UCI micro-moves joined by commas, e.g. `e2e4,g1f3`.
    pub fn uci(&self) -> String {
        self.to_string()
    }

    /// The position after the path and the end of the turn.
    pub fn end_position(&self, start: &Position) -> Position {
        self.moves()
            .iter()
            .fold(*start, |p, &m| p.play_unchecked(m))
            .end_turn()
    }
}

impl fmt::Display for TurnPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.moves().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

/// Types payable by `dice`, and whether castling is (a King and a Rook die both present).
#[inline]
pub(crate) fn payable(pos: &Position) -> (u8, bool) {
    let mask = pos.dice().type_mask();
    let castle = mask & PieceType::King.mask_bit() != 0 && mask & PieceType::Rook.mask_bit() != 0;
    (mask, castle)
}

/// Whether some micro-move is payable by the pool (rules.md §5, "complete").
#[inline]
pub fn has_payable_move(pos: &Position) -> bool {
    let (mask, castle) = payable(pos);
    if mask == 0 {
        return false;
    }
    let mut list = MoveList::default();
    generate_into(pos, mask, castle, &mut list);
    !list.is_empty()
}

/// Reusable scratch for turn enumeration: keeps its buffers between calls, so enumerating
/// many positions allocates nothing once warmed up.
#[derive(Default)]
pub struct TurnGenerator {
    kings: Vec<TurnPath>,
    others: Vec<TurnPath>,
    lists: [MoveList; 3],
    best: u8,
}

impl TurnGenerator {
    /// A generator with empty buffers.
    pub fn new() -> TurnGenerator {
        TurnGenerator::default()
    }

    /// The legal turn paths of `pos` (rules.md §5) appended to `out` in rule order: king
    /// captures first, then the paths of maximal cost, each in depth-first generation order.
    /// Nothing is appended for a pass.
    pub fn legal_paths_into(&mut self, pos: &Position, out: &mut Vec<TurnPath>) {
        self.run(pos, &mut Unmetered, false);
        self.emit(out);
    }

    /// [`TurnGenerator::legal_paths_into`] under a work budget (one unit per move-generation
    /// call and per examined micro-move). On exhaustion nothing is appended.
    pub fn legal_paths_budgeted(
        &mut self,
        pos: &Position,
        budget: &mut Budget,
        out: &mut Vec<TurnPath>,
    ) -> Budgeted<()> {
        let start = budget.used();
        if self.run(pos, budget, false) {
            self.emit(out);
            Budgeted::Complete((), budget.used() - start)
        } else {
            Budgeted::Incomplete(budget.used() - start)
        }
    }

    /// The first king-capturing legal path in rule order (depth-first generation order),
    /// stopping as soon as it is found; `None` when no path captures a king.
    pub fn first_king_capture(&mut self, pos: &Position) -> Option<TurnPath> {
        self.run(pos, &mut Unmetered, true);
        self.kings.first().copied()
    }

    /// [`TurnGenerator::first_king_capture`] under a work budget.
    pub fn first_king_capture_budgeted(
        &mut self,
        pos: &Position,
        budget: &mut Budget,
    ) -> Budgeted<Option<TurnPath>> {
        let start = budget.used();
        if self.run(pos, budget, true) {
            Budgeted::Complete(self.kings.first().copied(), budget.used() - start)
        } else {
            Budgeted::Incomplete(budget.used() - start)
        }
    }

    /// Enumerate; `false` if the meter ran out.
    fn run<M: Meter>(&mut self, pos: &Position, meter: &mut M, first_king: bool) -> bool {
        self.kings.clear();
        self.others.clear();
        let mut walk = Walk {
            kings: &mut self.kings,
            others: &mut self.others,
            best: 0,
            path: TurnPath {
                moves: [MicroMove::NULL; 3],
                len: 0,
                cost: 0,
                king_capture: false,
            },
            meter,
            first_king,
        };
        let outcome = walk.dfs(pos, &mut self.lists);
        self.best = walk.best;
        !matches!(outcome, ControlFlow::Break(Stop::Exhausted))
    }

    fn emit(&self, out: &mut Vec<TurnPath>) {
        out.extend_from_slice(&self.kings);
        out.extend(self.others.iter().filter(|p| p.cost == self.best));
    }
}

/// Why a walk stopped early.
enum Stop {
    /// The meter ran out.
    Exhausted,
    /// The first king capture was asked for and found.
    FoundKing,
}

/// The state of one depth-first enumeration.
struct Walk<'a, M: Meter> {
    kings: &'a mut Vec<TurnPath>,
    others: &'a mut Vec<TurnPath>,
    best: u8,
    path: TurnPath,
    meter: &'a mut M,
    first_king: bool,
}

impl<M: Meter> Walk<'_, M> {
    fn dfs(&mut self, pos: &Position, lists: &mut [MoveList]) -> ControlFlow<Stop> {
        let depth = self.path.len as usize;
        let (mask, castle) = payable(pos);
        let mut any = false;
        if let (true, Some((list, deeper))) = (mask != 0, lists.split_first_mut()) {
            if !self.meter.charge(1) {
                return ControlFlow::Break(Stop::Exhausted);
            }
            generate_into(pos, mask, castle, list);
            list.try_for_each(pos, |m| {
                if !self.meter.charge(1) {
                    return ControlFlow::Break(Stop::Exhausted);
                }
                any = true;
                let king = pos.captures_king(m);
                self.path.moves[depth] = m;
                self.path.len = depth as u8 + 1;
                self.path.cost += m.cost();
                if king {
                    self.path.king_capture = true;
                    self.best = self.best.max(self.path.cost);
                    self.kings.push(self.path);
                    self.path.king_capture = false;
                    if self.first_king {
                        return ControlFlow::Break(Stop::FoundKing);
                    }
                } else {
                    self.dfs(&pos.play_unchecked(m), deeper)?;
                }
                self.path.cost -= m.cost();
                self.path.len = depth as u8;
                ControlFlow::Continue(())
            })?;
        }
        if !any && depth > 0 && self.path.cost >= self.best {
            // Complete: no payable micro-move after the last one.
            self.best = self.path.cost;
            self.others.push(self.path);
        }
        ControlFlow::Continue(())
    }
}

/// The legal turn paths of `pos` (rules.md §5); empty = pass. See
/// [`TurnGenerator::legal_paths_into`] for the allocation-free form.
pub fn legal_paths(pos: &Position) -> Vec<TurnPath> {
    let mut out = Vec::new();
    TurnGenerator::new().legal_paths_into(pos, &mut out);
    out
}

/// The distinct first micro-moves of the legal paths, in path order (rules.md §5).
pub fn legal_first_moves(pos: &Position) -> Vec<MicroMove> {
    let mut out: Vec<MicroMove> = Vec::new();
    for p in legal_paths(pos) {
        let m = p.moves()[0];
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}
