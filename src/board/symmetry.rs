//! Colour flip (docs/rules.md §7).

use super::Position;

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
}
