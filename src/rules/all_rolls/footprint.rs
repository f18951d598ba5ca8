//! The squares a micro-move touches, to tell when two moves commute: the walk's last level
//! skips a leaf that a later-ordered derivation of the same end state also reaches (see
//! `Walk::expand_leaves`).

use crate::board::ep_capture_rank;
use dicechess_kernels::{
    bishop_attacks, queen_attacks, rook_attacks, Bitboard, Color, PieceType, Square,
};

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a rank, file or
/// diagonal, else 0. Built at compile time (32 KiB).
static BETWEEN: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
            let (df, dr) = (fb as i32 - fa as i32, rb as i32 - ra as i32);
            let aligned = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            if aligned {
                let (sf, sr) = (df.signum(), dr.signum());
                let (mut f, mut r) = (fa as i32 + sf, ra as i32 + sr);
                let mut bits = 0u64;
                while f != fb as i32 || r != rb as i32 {
                    bits |= 1u64 << (r * 8 + f);
                    f += sf;
                    r += sr;
                }
                t[a][b] = bits;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// The squares a move `from` → `to` touches: both ends and, for a slide or a double push,
/// every square passed. A knight's or king's move passes none (its ends are not two apart
/// on a line, or are adjacent).
#[inline]
pub(super) fn footprint(from: u8, to: u8) -> u64 {
    BETWEEN[from as usize][to as usize] | 1u64 << from | 1u64 << to
}

/// The targets in `targets` of the piece of type `piece` of side `us` on `from` whose leaves
/// the walk's last level skips as commuting with the node's last move (footprint `last`,
/// which misses `from`): those whose footprint misses `last`, that meet no enemy king (a
/// king capture is played in full) and that the per-leaf path would key set-wise. Equal to
/// the per-leaf test `footprint(from, to) & last == 0` on exactly those leaves (see
/// `Walk::expand_leaves`), computed for all targets at once:
///
/// * a slider's footprint misses `last` when `to` does and no square of `last` lies
///   between, i.e. when `to` is attacked with `last` added to the blockers;
/// * a knight's or king's footprint is its two ends;
/// * a pawn keeps its e.p. captures (empty targets off its file, always played in full), its
///   double push when the passed square is in `last`, and every target when the square
///   behind it is off the board or on the rank the end of turn clears: a pawn on its
///   seventh rank (its promotions are tested leaf by leaf) and odd positions.
///
/// Kiwipete: 25,142 of 54,049 leaf moves are skipped, each of which had cost a key, a victim
/// test and a footprint lookup before it was dropped (13 % of the walk's instructions).
#[inline]
pub(super) fn commuting_targets(
    piece: PieceType,
    us: Color,
    from: Square,
    targets: u64,
    occupied: u64,
    their_kings: u64,
    last: u64,
) -> u64 {
    let cand = targets & !last & !their_kings;
    match piece {
        PieceType::Bishop => cand & bishop_attacks(from, Bitboard(occupied | last)).0,
        PieceType::Rook => cand & rook_attacks(from, Bitboard(occupied | last)).0,
        PieceType::Queen => cand & queen_attacks(from, Bitboard(occupied | last)).0,
        PieceType::Knight | PieceType::King => cand,
        PieceType::Pawn => {
            let step: i32 = if us == Color::White { 8 } else { -8 };
            let f = i32::from(from.to_u8());
            let behind = f - step;
            if !(0..64).contains(&behind) || ep_capture_rank(us).0 & 1u64 << behind != 0 {
                return 0;
            }
            let off_file = !Bitboard::file(from.file()).0;
            let mut cand = cand & !(!occupied & off_file);
            let (mid, two) = (f + step, f + 2 * step);
            if (0..64).contains(&two) && last & 1u64 << mid != 0 {
                cand &= !(1u64 << two);
            }
            cand
        }
    }
}

/// The footprint of a move that commutes with nothing: castling (its legality reads the
/// rights) and an e.p. capture (it reads the e.p. set and takes a pawn off its squares).
pub(super) const COMMUTES_WITH_NOTHING: u64 = u64::MAX;

#[cfg(test)]
mod tests {
    use super::footprint;

    #[test]
    fn footprints_of_slides_jumps_and_steps() {
        // a1 → h8 passes b2 … g7.
        let diag: u64 = (1..7).map(|i| 1u64 << (i * 9)).sum();
        assert_eq!(footprint(0, 63), diag | 1 | 1 << 63);
        // e2 → e4 passes e3.
        assert_eq!(footprint(12, 28), 1 << 12 | 1 << 20 | 1 << 28);
        // A knight's jump g1 → f3 and a king's step e1 → f2 pass nothing.
        assert_eq!(footprint(6, 21), 1 << 6 | 1 << 21);
        assert_eq!(footprint(4, 13), 1 << 4 | 1 << 13);
        // h1 → a1 passes b1 … g1, the same squares both ways.
        assert_eq!(footprint(7, 0), footprint(0, 7));
        assert_eq!(footprint(7, 0), 0xff);
    }
}
