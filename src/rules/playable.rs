//! Playable dice after a played prefix (docs/rules.md §5).

use super::{legal_paths, MicroMove};
use crate::board::Position;

/// For each face 1..=6 (index `face − 1`): how many dice of that face the player may still
/// spend after `prefix` — its count in the pool after the prefix minus the least count left
/// at the end of any legal path that starts with `prefix`. `None` if no legal path has that
/// prefix.
pub fn playable_dice(pos: &Position, prefix: &[MicroMove]) -> Option<[u8; 6]> {
    let after = prefix.iter().fold(*pos, |p, &m| p.play_unchecked(m)).dice();
    let mut least: Option<[u8; 6]> = None;
    for path in legal_paths(pos) {
        if !path.moves().starts_with(prefix) {
            continue;
        }
        let end = path
            .moves()
            .iter()
            .fold(*pos, |p, &m| p.play_unchecked(m))
            .dice();
        let l = least.get_or_insert([u8::MAX; 6]);
        for (face, slot) in (1..=6u8).zip(l.iter_mut()) {
            *slot = (*slot).min(end.count(face));
        }
    }
    let least = least?;
    let mut out = [0u8; 6];
    for (face, slot) in (1..=6u8).zip(out.iter_mut()) {
        *slot = after.count(face).saturating_sub(least[face as usize - 1]);
    }
    Some(out)
}
