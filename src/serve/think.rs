//! What a delivery lets us think about: the think budget from the clocks and the time
//! control, and whether its position is one a game can reach.

use super::wire::{Clocks, Seat, ServerTimeControl};
use crate::board::Position;
use crate::search::MIN_THINK_MS;
use crate::search::{budget_ms, ClockState, TimePolicy};
use dicechess_kernels::{Color, PieceType};

/// The engine colour of a player's seat; `None` for a spectator.
pub fn color_of(seat: Seat) -> Option<Color> {
    match seat {
        Seat::White => Some(Color::White),
        Seat::Black => Some(Color::Black),
        Seat::Spectator => None,
    }
}

/// The think time for one turn, ms, never more than `max_think_ms`:
/// * `Unlimited` (or no control and no clocks): `max_think_ms`;
/// * `PerMove`: its seconds, as ms, less `overhead_ms` (at least the 20 ms floor);
/// * `SuddenDeath`, `Fischer` (increment seconds as ms), or clocks without a control: the
///   seat's clock through the time manager (`empirical-v1`, less `overhead_ms`); a clocked
///   control without `clocks` thinks `max_think_ms`.
pub fn think_budget_ms(
    tc: Option<ServerTimeControl>,
    clocks: Option<Clocks>,
    color: Color,
    pos: &Position,
    max_think_ms: u64,
    overhead_ms: u64,
) -> u64 {
    let remaining = clocks.map(|c| match color {
        Color::White => c.white,
        Color::Black => c.black,
    });
    let clocked = |increment_ms: u64| match remaining {
        Some(remaining_ms) => budget_ms(
            &ClockState {
                remaining_ms,
                increment_ms,
                move_number: pos.fullmove(),
                moves_to_go: None,
            },
            TimePolicy::EmpiricalV1,
            overhead_ms,
        ),
        None => max_think_ms,
    };
    let ms = match tc {
        Some(ServerTimeControl::Unlimited {}) => max_think_ms,
        Some(ServerTimeControl::SuddenDeath { .. }) => clocked(0),
        Some(ServerTimeControl::Fischer {
            increment_seconds, ..
        }) => clocked(u64::from(increment_seconds) * 1000),
        Some(ServerTimeControl::PerMove { seconds_per_move }) => {
            MIN_THINK_MS.max((u64::from(seconds_per_move) * 1000).saturating_sub(overhead_ms))
        }
        None => clocked(0),
    };
    ms.min(max_think_ms)
}

/// Why no game can reach a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreachable {
    /// More than 16 pieces of one colour.
    #[error("{0:?} has {1} pieces (at most 16)")]
    TooManyPieces(Color, u32),
    /// Not exactly one king of one colour.
    #[error("{0:?} has {1} kings (exactly one)")]
    Kings(Color, u32),
}

/// Whether a game can reach `pos` as far as piece counts tell: at most 16 pieces and
/// exactly one king a side. (Nine queens and a full army, for instance, cannot be: their
/// 4.4 M turn paths were a way to stall the server.)
pub fn check_reachable(pos: &Position) -> Result<(), Unreachable> {
    for color in [Color::White, Color::Black] {
        let pieces = pos.color(color).0.count_ones();
        if pieces > 16 {
            return Err(Unreachable::TooManyPieces(color, pieces));
        }
        let kings = pos.piece_bb(color, PieceType::King).0.count_ones();
        if kings != 1 {
            return Err(Unreachable::Kings(color, kings));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_follow_the_control_and_the_cap() {
        let pos = Position::startpos();
        let w = Color::White;
        let clocks = |ms| {
            Some(Clocks {
                white: ms,
                black: 1,
            })
        };
        assert_eq!(
            think_budget_ms(
                Some(ServerTimeControl::Unlimited {}),
                None,
                w,
                &pos,
                5000,
                300
            ),
            5000
        );
        let per_move = Some(ServerTimeControl::PerMove {
            seconds_per_move: 1,
        });
        assert_eq!(think_budget_ms(per_move, None, w, &pos, 5000, 300), 700);
        let sd = Some(ServerTimeControl::SuddenDeath {
            initial_seconds: 60,
        });
        let b = think_budget_ms(sd, clocks(20_000), w, &pos, 5000, 300);
        assert!(b > 20 && b < 5000, "{b}");
        assert_eq!(think_budget_ms(sd, clocks(1000), w, &pos, 5000, 300), 20);
        assert_eq!(
            think_budget_ms(sd, clocks(10_000_000), w, &pos, 5000, 300),
            5000
        );
        // The increment counts: more time per turn than sudden death on the same clock.
        let fischer = Some(ServerTimeControl::Fischer {
            initial_seconds: 60,
            increment_seconds: 5,
        });
        let f = think_budget_ms(fischer, clocks(20_000), w, &pos, 5000, 300);
        assert!(f > b, "fischer {f} <= sudden death {b}");
        // Black reads its own clock.
        assert_eq!(
            think_budget_ms(sd, clocks(10_000_000), Color::Black, &pos, 5000, 300),
            20
        );
    }

    #[test]
    fn piece_counts_decide_reachability() {
        assert_eq!(check_reachable(&Position::startpos()), Ok(()));
        let nine = Position::from_dfen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/1BNN1KB1 w - - 0 1 QQQ")
            .unwrap();
        // The nine queens: sixteen white pieces, but no black king.
        assert_eq!(
            check_reachable(&nine),
            Err(Unreachable::Kings(Color::Black, 0))
        );
        let seventeen = Position::from_dfen("4k3/8/8/QQQQQQQQ/QQQQQQQQ/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            check_reachable(&seventeen),
            Err(Unreachable::TooManyPieces(Color::White, 17))
        );
    }
}
