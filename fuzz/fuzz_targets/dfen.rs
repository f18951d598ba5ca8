//! DFEN parsing (docs/rules.md §3): arbitrary bytes never make the parser panic, and every
//! accepted input writes back canonically: `parse(write(p)) == p`, `write` is a fixed
//! point, and the incremental Zobrist key equals a full recomputation (docs/rules.md §7).
#![no_main]

use dicechess::board::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_dfen(text) else {
        return;
    };
    assert_eq!(pos.key(), pos.compute_key(), "key of parsed {text:?}");

    let written = pos.to_dfen();
    let again = Position::from_dfen(&written)
        .unwrap_or_else(|e| panic!("canonical {written:?} (from {text:?}) does not parse: {e}"));
    assert_eq!(again, pos, "parse(write(p)) != p for {text:?} -> {written:?}");
    assert_eq!(again.to_dfen(), written, "write is not canonical for {text:?}");
    assert_eq!(again.key(), again.compute_key(), "key of reparsed {written:?}");

    // Colour flip (docs/rules.md §7): an involution that keeps the key consistent and writes a
    // DFEN that parses back to itself.
    let flipped = pos.flip_colors();
    assert_eq!(flipped.key(), flipped.compute_key(), "key of flip of {written:?}");
    assert_eq!(flipped.flip_colors(), pos, "flip is not an involution for {written:?}");
    let fw = flipped.to_dfen();
    assert_eq!(
        Position::from_dfen(&fw).ok(),
        Some(flipped),
        "flip of {written:?} writes {fw:?}, which does not parse back"
    );
});
