//! Legal turn paths under the maximum dice rule (docs/rules.md §5).

use super::budget::{Budget, Budgeted, Meter, Unmetered};
use super::key_set::KeySet;
use super::{generate_into, MicroMove, MoveList};
use crate::board::Position;
use dicechess_kernels::PieceType;
use std::fmt;
use std::ops::ControlFlow;

/// One turn path: 1 to 3 micro-moves, packed into one `u64`.
///
/// Layout: micro-move `i` (18 bits, [`MicroMove::encode`]) at bit `18·i`, the length at
/// bit 54, the cost at bit 56, the king-capture flag at bit 58. The enumeration builds a
/// path in a register and stores it with one aligned 8-byte write; as a 15-byte struct
/// mutated field by field, every push stalled on store forwarding (perf: over half of the
/// Kiwipete PNB enumeration time).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnPath(u64);

const LEN_SHIFT: u32 = 54;
const COST_SHIFT: u32 = 56;
const KING_BIT: u64 = 1 << 58;

/// The micro-moves of a [`TurnPath`] by value; dereferences to a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathMoves {
    moves: [MicroMove; 3],
    len: u8,
}

impl std::ops::Deref for PathMoves {
    type Target = [MicroMove];
    #[inline]
    fn deref(&self) -> &[MicroMove] {
        &self.moves[..self.len as usize]
    }
}

impl IntoIterator for PathMoves {
    type Item = MicroMove;
    type IntoIter = std::iter::Take<std::array::IntoIter<MicroMove, 3>>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter().take(self.len as usize)
    }
}

impl<'a> IntoIterator for &'a PathMoves {
    type Item = &'a MicroMove;
    type IntoIter = std::slice::Iter<'a, MicroMove>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl TurnPath {
    /// Number of micro-moves (1..=3).
    #[inline]
    pub fn len(&self) -> usize {
        ((self.0 >> LEN_SHIFT) & 3) as usize
    }

    /// Whether the path has no micro-move (never true for a generated path).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The micro-moves, in playing order.
    #[inline]
    pub fn moves(&self) -> PathMoves {
        let mut moves = [MicroMove::NULL; 3];
        let len = self.len();
        for (i, slot) in moves.iter_mut().enumerate().take(len) {
            *slot = MicroMove::decode((self.0 >> (18 * i)) as u32 & 0x3ffff);
        }
        PathMoves {
            moves,
            len: len as u8,
        }
    }

    /// Dice spent (castling 2, any other micro-move 1).
    #[inline]
    pub fn cost(&self) -> u8 {
        ((self.0 >> COST_SHIFT) & 3) as u8
    }

    /// Whether the last micro-move captures the enemy king (the game ends there).
    #[inline]
    pub fn captures_king(&self) -> bool {
        self.0 & KING_BIT != 0
    }

    /// The UCI micro-moves joined by commas, e.g. `e2e4,g1f3`.
    pub fn uci(&self) -> String {
        self.to_string()
    }

    /// The position after the path and the end of the turn.
    pub fn end_position(&self, start: &Position) -> Position {
        self.moves()
            .into_iter()
            .fold(*start, |p, m| p.play_unchecked(m))
            .end_turn()
    }
}

impl fmt::Debug for TurnPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TurnPath({self}, cost {}, king {})",
            self.cost(),
            self.captures_king()
        )
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

/// Whether some micro-move is payable by the pool (docs/rules.md §5, "complete").
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
    king_ends: Vec<Position>,
    other_ends: Vec<Position>,
    lists: [MoveList; 3],
    best: u8,
    seen: KeySet,
    found: Vec<(Position, u8)>,
}

impl TurnGenerator {
    /// A generator with empty buffers.
    pub fn new() -> TurnGenerator {
        TurnGenerator::default()
    }

    /// The legal turn paths of `pos` (docs/rules.md §5) appended to `out` in rule order: king
    /// captures first, then the paths of maximal cost, each in depth-first generation order.
    /// Nothing is appended for a pass.
    pub fn legal_paths_into(&mut self, pos: &Position, out: &mut Vec<TurnPath>) {
        self.run(pos, &mut Unmetered, false, false);
        self.emit(out);
    }

    /// [`TurnGenerator::legal_paths_into`] plus each path's position after its last
    /// micro-move (before the end of turn), computed during the walk instead of replayed:
    /// `ends[i]` belongs to `out[i]` (both appended in rule order).
    pub fn legal_paths_with_ends_into(
        &mut self,
        pos: &Position,
        out: &mut Vec<TurnPath>,
        ends: &mut Vec<Position>,
    ) {
        self.run(pos, &mut Unmetered, false, true);
        self.emit(out);
        ends.extend_from_slice(&self.king_ends);
        let best = self.best;
        ends.extend(
            self.others
                .iter()
                .zip(&self.other_ends)
                .filter(|(p, _)| p.cost() == best)
                .map(|(_, e)| *e),
        );
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
        if self.run(pos, budget, false, false) {
            self.emit(out);
            Budgeted::Complete((), budget.used() - start)
        } else {
            Budgeted::Incomplete(budget.used() - start)
        }
    }

    /// [`TurnGenerator::legal_paths_budgeted`], except that on exhaustion `out` receives the
    /// paths found so far that are legal whatever the rest of the walk holds: king captures
    /// (always legal, docs/rules.md §5) and paths spending every die of the pool (no path can
    /// spend more, so they are of maximal cost). This is what a caller out of budget can
    /// still play; the subset is empty only when the budget ran out before the first such
    /// path.
    pub fn legal_paths_or_sure_subset(
        &mut self,
        pos: &Position,
        budget: &mut Budget,
        out: &mut Vec<TurnPath>,
    ) -> Budgeted<()> {
        let done = self.legal_paths_budgeted(pos, budget, out);
        if let Budgeted::Incomplete(_) = done {
            let full = pos.dice().len() as u8;
            out.extend_from_slice(&self.kings);
            out.extend(self.others.iter().filter(|p| p.cost() == full));
        }
        done
    }

    /// The first king-capturing legal path in rule order (depth-first generation order),
    /// stopping as soon as it is found; `None` when no path captures a king.
    pub fn first_king_capture(&mut self, pos: &Position) -> Option<TurnPath> {
        self.run(pos, &mut Unmetered, true, false);
        self.kings.first().copied()
    }

    /// [`TurnGenerator::first_king_capture`] under a work budget.
    pub fn first_king_capture_budgeted(
        &mut self,
        pos: &Position,
        budget: &mut Budget,
    ) -> Budgeted<Option<TurnPath>> {
        let start = budget.used();
        if self.run(pos, budget, true, false) {
            Budgeted::Complete(self.kings.first().copied(), budget.used() - start)
        } else {
            Budgeted::Incomplete(budget.used() - start)
        }
    }

    /// Enumerate; `false` if the meter ran out.
    fn run<M: Meter>(
        &mut self,
        pos: &Position,
        meter: &mut M,
        first_king: bool,
        keep_ends: bool,
    ) -> bool {
        self.kings.clear();
        self.others.clear();
        self.king_ends.clear();
        self.other_ends.clear();
        let mut walk = Walk {
            kings: &mut self.kings,
            others: &mut self.others,
            king_ends: &mut self.king_ends,
            other_ends: &mut self.other_ends,
            keep_ends,
            best: 0,
            prefix: 0,
            depth: 0,
            cost: 0,
            meter,
            first_king,
        };
        let outcome = walk.dfs(pos, &mut self.lists);
        self.best = walk.best;
        !matches!(outcome, ControlFlow::Break(Stop::Exhausted))
    }

    fn emit(&self, out: &mut Vec<TurnPath>) {
        out.extend_from_slice(&self.kings);
        out.extend(self.others.iter().filter(|p| p.cost() == self.best));
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
    king_ends: &'a mut Vec<Position>,
    other_ends: &'a mut Vec<Position>,
    keep_ends: bool,
    best: u8,
    /// Encoded micro-moves of the current prefix.
    prefix: u64,
    /// Micro-moves in the prefix.
    depth: u8,
    /// Dice spent by the prefix.
    cost: u8,
    meter: &'a mut M,
    first_king: bool,
}

impl<M: Meter> Walk<'_, M> {
    /// The current prefix as a complete path.
    #[inline]
    fn path(&self, king: bool) -> TurnPath {
        TurnPath(
            self.prefix
                | (self.depth as u64) << LEN_SHIFT
                | (self.cost as u64) << COST_SHIFT
                | if king { KING_BIT } else { 0 },
        )
    }

    fn dfs(&mut self, pos: &Position, lists: &mut [MoveList]) -> ControlFlow<Stop> {
        let depth = self.depth;
        let (mask, castle) = payable(pos);
        let mut any = false;
        if let (true, Some((list, deeper))) = (mask != 0, lists.split_first_mut()) {
            if !self.meter.charge(1) {
                return ControlFlow::Break(Stop::Exhausted);
            }
            generate_into(pos, mask, castle, list);
            let prefix = self.prefix;
            let cost = self.cost;
            let dice_left = pos.dice().len() as u8;
            let their_kings = pos.piece_bb(pos.side_to_move().opponent(), PieceType::King);
            list.try_for_each(pos, |m| {
                if !self.meter.charge(1) {
                    return ControlFlow::Break(Stop::Exhausted);
                }
                any = true;
                // Castling lands on an empty square, so it never captures a king.
                let king = their_kings.contains(m.to);
                self.prefix = prefix | (m.encode() as u64) << (18 * depth as u32);
                self.depth = depth + 1;
                self.cost = cost + m.cost();
                if king {
                    self.best = self.best.max(self.cost);
                    self.kings.push(self.path(true));
                    if self.keep_ends {
                        self.king_ends.push(pos.play_unchecked(m));
                    }
                    if self.first_king {
                        return ControlFlow::Break(Stop::FoundKing);
                    }
                } else if !self.keep_ends && dice_left == m.cost() {
                    // The last die: the path is complete without playing the move.
                    if self.cost >= self.best {
                        self.best = self.cost;
                        self.others.push(self.path(false));
                    }
                } else {
                    self.dfs(&pos.play_unchecked(m), deeper)?;
                }
                ControlFlow::Continue(())
            })?;
            self.prefix = prefix;
            self.depth = depth;
            self.cost = cost;
        }
        if !any && depth > 0 && self.cost >= self.best {
            // Complete: no payable micro-move after the last one.
            self.best = self.cost;
            self.others.push(self.path(false));
            if self.keep_ends {
                self.other_ends.push(*pos);
            }
        }
        ControlFlow::Continue(())
    }
}

/// What the legal turns of a rolled position lead to (see
/// [`TurnGenerator::end_states_into`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndStates {
    /// No legal turn: the roll is a pass.
    Pass,
    /// Some legal turn captures the enemy king (the positions are not collected).
    KingCapture,
    /// The distinct after-states were appended; the number of completed walks (before
    /// de-duplication) is given.
    Moves(usize),
}

impl TurnGenerator {
    /// The distinct positions after the end of turn of every legal turn of `pos`, without
    /// listing paths: a walk that skips a node it has already expanded with the same dice
    /// left (transpositions: `A,B` and `B,A` reach the same node), stops at the first king
    /// capture, and keeps the completions of maximal cost (docs/rules.md §5). Positions are
    /// distinct by Zobrist key, so two that differ only in their clocks count once. This is
    /// what a search's chance node needs, at a fraction of the cost of all paths.
    pub fn end_states_into(&mut self, pos: &Position, out: &mut Vec<Position>) -> EndStates {
        match self.end_states_metered(pos, &mut Unmetered, out) {
            Some(e) => e,
            // An unmetered walk never runs out.
            None => EndStates::Pass,
        }
    }

    /// [`TurnGenerator::end_states_into`] under a work budget (one unit per
    /// move-generation call and per examined micro-move). `None` when the budget ran out:
    /// nothing is appended. The walk keeps every completion until the end, so the units
    /// bound its memory too (one 104-byte entry per unit at most).
    pub fn end_states_budgeted(
        &mut self,
        pos: &Position,
        budget: &mut Budget,
        out: &mut Vec<Position>,
    ) -> Option<EndStates> {
        self.end_states_metered(pos, budget, out)
    }

    fn end_states_metered<M: Meter>(
        &mut self,
        pos: &Position,
        meter: &mut M,
        out: &mut Vec<Position>,
    ) -> Option<EndStates> {
        self.seen.clear();
        self.found.clear();
        let mut best = 0u8;
        let walk = ends_dfs(
            pos,
            0,
            &mut self.lists,
            &mut self.seen,
            &mut self.found,
            &mut best,
            meter,
        );
        match walk {
            ControlFlow::Break(Stop::Exhausted) => {
                self.found.clear();
                return None;
            }
            ControlFlow::Break(Stop::FoundKing) => return Some(EndStates::KingCapture),
            ControlFlow::Continue(()) => {}
        }
        if self.found.is_empty() {
            return Some(EndStates::Pass);
        }
        let completed = self.found.len();
        self.seen.clear();
        for (p, cost) in &self.found {
            if *cost == best {
                let after = p.end_turn();
                if self.seen.insert(after.key()) {
                    out.push(after);
                }
            }
        }
        Some(EndStates::Moves(completed))
    }
}

/// The walk of [`TurnGenerator::end_states_into`]; `Break` on a king capture or when the
/// meter runs out.
fn ends_dfs<M: Meter>(
    pos: &Position,
    cost: u8,
    lists: &mut [MoveList],
    seen: &mut KeySet,
    found: &mut Vec<(Position, u8)>,
    best: &mut u8,
    meter: &mut M,
) -> ControlFlow<Stop> {
    let (mask, castle) = payable(pos);
    let mut any = false;
    if let (true, Some((list, deeper))) = (mask != 0, lists.split_first_mut()) {
        if !meter.charge(1) {
            return ControlFlow::Break(Stop::Exhausted);
        }
        generate_into(pos, mask, castle, list);
        list.try_for_each(pos, |m| {
            if !meter.charge(1) {
                return ControlFlow::Break(Stop::Exhausted);
            }
            any = true;
            if pos.captures_king(m) {
                return ControlFlow::Break(Stop::FoundKing);
            }
            let next = pos.play_unchecked(m);
            let c = cost + m.cost();
            if next.dice().is_empty() {
                if c >= *best {
                    *best = c;
                    found.push((next, c));
                }
            } else if seen.insert(next.key()) {
                ends_dfs(&next, c, deeper, seen, found, best, meter)?;
            }
            ControlFlow::Continue(())
        })?;
    }
    if !any && cost > 0 && cost >= *best {
        *best = cost;
        found.push((*pos, cost));
    }
    ControlFlow::Continue(())
}

/// The legal turn paths of `pos` (docs/rules.md §5); empty = pass. See
/// [`TurnGenerator::legal_paths_into`] for the allocation-free form.
pub fn legal_paths(pos: &Position) -> Vec<TurnPath> {
    let mut out = Vec::new();
    TurnGenerator::new().legal_paths_into(pos, &mut out);
    out
}

/// The distinct first micro-moves of the legal paths, in path order (docs/rules.md §5).
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
