//! Single-die perft: a move-generation check against the conformance vectors.

use super::generate;
use crate::board::{Dice, Position};
use dicechess_kernels::PieceType;

/// Single-die perft (the `perft_single_die.json` convention): at every ply the side to move
/// has a pool of just `piece`'s die; nodes are its pseudo-legal micro-moves (castling listed
/// under the king die); king captures are counted and not terminal; after each move the turn
/// ends and the same one-die pool is installed for the other side.
pub fn perft_single_die(pos: &Position, piece: PieceType, depth: u32) -> u64 {
    let pos = pos.with_dice(Dice::from_faces(&[piece.face()]).unwrap_or(Dice::EMPTY));
    if depth == 0 {
        return 1;
    }
    let list = generate(&pos, piece.mask_bit(), true);
    if depth == 1 {
        return list.count(&pos) as u64;
    }
    let mut nodes = 0;
    list.for_each(&pos, |m| {
        nodes += perft_single_die(&pos.play_unchecked(m).end_turn(), piece, depth - 1);
    });
    nodes
}
