//! The file mirror (`Position::mirror_files`) keeps the rules: without castling rights, a
//! position and its mirror have as many legal turns for every one of the 56 rolls.
#![allow(clippy::unwrap_used)] // a test fails by panicking

use dicechess::board::{Dice, Position};
use dicechess::rules::{legal_paths, ROLLS};

const POSITIONS: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 3 7",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - d6f6 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 40",
];

#[test]
fn legal_turn_counts_survive_the_mirror_without_castling_rights() {
    for dfen in POSITIONS {
        let pos = Position::from_dfen(dfen).unwrap();
        assert_eq!(pos.castling().0, 0);
        for roll in ROLLS {
            let dice = Dice::from_faces(&roll.faces).unwrap();
            let (a, b) = (pos.with_dice(dice), pos.mirror_files().with_dice(dice));
            assert_eq!(
                legal_paths(&a).len(),
                legal_paths(&b).len(),
                "{dfen} {:?}",
                roll.faces
            );
        }
    }
}
