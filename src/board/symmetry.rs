//! The board's symmetries: colour flip (docs/rules.md §7) and file mirror.

use super::castling::Castling;
use super::Position;

/// A bitboard mirrored across the d/e line (file `f ↔ 7 − f`, ranks kept): the bits of each
/// rank byte reversed.
#[inline]
fn mirror_bb(b: u64) -> u64 {
    b.reverse_bits().swap_bytes()
}

impl Position {
    /// The colour-flipped position: ranks mirrored (square `i ↔ i ^ 56`), colours swapped,
    /// side flipped, K↔k and Q↔q, e.p. targets mirrored; dice and clocks kept. An involution.
    pub fn flip_colors(&self) -> Position {
        let mut p = *self;
        for b in p.by_type.iter_mut() {
            *b = b.swap_bytes();
        }
        p.by_color = [self.by_color[1].swap_bytes(), self.by_color[0].swap_bytes()];
        p.ep = self.ep.swap_bytes();
        p.side = self.side ^ 1;
        p.castling = self.castling().swap_colors().0;
        p.key = p.compute_key();
        p
    }

    /// The file-mirrored position (a ↔ h): square `i ↔ i ^ 7`, colours and side kept,
    /// castling rights swapped K↔Q and k↔q, e.p. targets mirrored; dice and clocks kept. An
    /// involution, as the JVM engine's `Symmetry.horizontalMirror`.
    ///
    /// It preserves the rules, and so every turn and win probability, only for a position
    /// without castling rights: mirrored, a king on e1 stands on d1, where no castling
    /// starts. With rights the result is a key, not a position to play.
    pub fn mirror_files(&self) -> Position {
        let mut p = *self;
        for b in p.by_type.iter_mut() {
            *b = mirror_bb(*b);
        }
        p.by_color = self.by_color.map(mirror_bb);
        p.ep = mirror_bb(self.ep);
        let c = self.castling;
        p.castling = Castling(((c & 0b0101) << 1) | ((c & 0b1010) >> 1)).0;
        p.key = p.compute_key();
        p
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Position;

    const POSITIONS: [&str; 5] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 3 7",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - d6f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 40",
    ];

    // The rules under the mirror (a layer above `board`): tests/symmetry.rs.
    #[test]
    fn mirroring_twice_is_the_identity() {
        for dfen in POSITIONS {
            let pos = Position::from_dfen(dfen).expect("a valid DFEN");
            let m = pos.mirror_files();
            assert_ne!(m, pos, "{dfen}: no position here is file-symmetric");
            assert_eq!(m.mirror_files(), pos, "{dfen}");
            assert_eq!(m.side_to_move(), pos.side_to_move());
            assert_eq!(
                (m.halfmove(), m.fullmove()),
                (pos.halfmove(), pos.fullmove())
            );
        }
        let kiwi = Position::from_dfen(POSITIONS[0]).expect("a valid DFEN");
        assert_eq!(kiwi.mirror_files().castling().fen(), "KQkq", "K↔Q, k↔q");
        let ep = Position::from_dfen(POSITIONS[2]).expect("a valid DFEN");
        assert_eq!(
            ep.mirror_files().to_dfen(),
            "rnbkqbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBKQBNR w - c6e6 0 3"
        );
    }
}
