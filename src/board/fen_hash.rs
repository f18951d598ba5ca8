//! `fen_hash`: the analytics database's position key (`positions.fen_hash`, a signed 64-bit
//! `bigint`): xxHash64 with seed 0 of the UTF-8 bytes of the normalised FEN
//! ([`normalized_fen`]: placement, side, castling and the capturable e.p. targets).
//!
//! Bit-compatible with the database's historical values, which Python's
//! `xxhash.xxh64(...).intdigest()` produced and its JVM side reads as a `Long`: the digest's 64
//! bits taken as an `i64`, no conversion.

use super::dfen::normalized_fen;
use super::Position;
use twox_hash::XxHash64;

/// The `fen_hash` of a normalised-FEN string, hashed as given (no normalisation).
///
/// ```
/// use dicechess::board::fen_hash_of;
///
/// // The database's value for the start position.
/// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
/// assert_eq!(fen_hash_of(start), 6344906133039437859);
/// ```
pub fn fen_hash_of(normalized: &str) -> i64 {
    XxHash64::oneshot(0, normalized.as_bytes()) as i64
}

/// The `fen_hash` of a position: [`fen_hash_of`] its [`normalized_fen`], so positions that
/// differ only in clocks, dice or an e.p. target nobody can capture share one key.
///
/// ```
/// use dicechess::board::{fen_hash, Position};
///
/// let a = Position::from_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB").unwrap();
/// let b = Position::from_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7").unwrap();
/// assert_eq!(fen_hash(&a), fen_hash(&b));
/// ```
pub fn fen_hash(pos: &Position) -> i64 {
    fen_hash_of(&normalized_fen(pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs the analytics database pins as taken from production (its `FenSpec`,
    /// "fenHash is bit-compatible with the existing data"), hashed as written there.
    #[test]
    fn matches_the_database_values() {
        let known: [(i64, &str); 4] = [
            (
                6344906133039437859,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            ),
            (
                7660317489635500655,
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3",
            ),
            (
                -1729048361218078578,
                "rnbqkbnr/pppppppp/8/8/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq e3",
            ),
            (
                -5606592683697872391,
                "rnbqkbr1/pppppppp/7n/8/P1B1P3/R4Q2/1PPP1PPP/1NB1K1NR b Kq a3",
            ),
        ];
        for (want, fen) in known {
            assert_eq!(fen_hash_of(fen), want, "{fen}");
        }
    }

    #[test]
    fn an_uncapturable_en_passant_target_does_not_split_a_position() {
        let with =
            Position::from_dfen("rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq h3 0 1")
                .unwrap();
        let without =
            Position::from_dfen("rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        assert_eq!(fen_hash(&with), fen_hash(&without));
        assert_eq!(
            fen_hash(&without),
            fen_hash_of("rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq -")
        );
    }
}
