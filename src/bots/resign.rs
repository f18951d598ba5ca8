//! When a bot resigns (the streaming client's turns, the webhook server's doubling answers).

use super::win_probability;
use crate::board::Position;
use crate::rules::legal_paths;
use dicechess_kernels::Color;

/// When to resign: never by default (dice turn games around; a bot that resigns gives away
/// the comebacks).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ResignPolicy {
    /// Resign when the win probability (the bots' logistic of material and king safety,
    /// [`win_probability`]) is below this, unless our roll captures the king. `None`: never.
    pub below: Option<f64>,
}

impl ResignPolicy {
    /// Whether `color` resigns in `pos`: its win probability is under the threshold, and
    /// it is not `color`'s roll that takes the king.
    pub fn resigns(&self, pos: &Position, color: Color) -> bool {
        let Some(below) = self.below else {
            return false;
        };
        if win_probability(pos, color) >= below {
            return false;
        }
        let our_roll = pos.side_to_move() == color && !pos.dice().is_empty();
        !(our_roll && legal_paths(pos).iter().any(|p| p.captures_king()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigning_needs_a_lost_position_and_no_king_capture() {
        let never = ResignPolicy::default();
        let lost = Position::from_dfen("qqqqkqqq/8/8/8/8/8/8/4K3 w - - 0 1 PPP").unwrap();
        assert!(!never.resigns(&lost, Color::White));
        let at = ResignPolicy { below: Some(0.05) };
        assert!(at.resigns(&lost, Color::White));
        // The same material, but the roll takes the king: play it.
        let capture = Position::from_dfen("qqqqkqqq/8/8/8/8/8/8/4K3 w - - 0 1 KKK").unwrap();
        let near = Position::from_dfen("qqqqqqqq/8/8/8/8/8/3k4/4K3 w - - 0 1 KKK").unwrap();
        assert!(
            at.resigns(&capture, Color::White),
            "the white king cannot reach e8"
        );
        assert!(!at.resigns(&near, Color::White));
        let start =
            Position::from_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB")
                .unwrap();
        assert!(!at.resigns(&start, Color::White));
        // Black, with the queens, never resigns here; White does before its roll too.
        assert!(!at.resigns(&lost, Color::Black));
        let unrolled = Position::from_dfen("qqqqqqqq/8/8/8/8/8/3k4/4K3 w - - 0 1").unwrap();
        assert!(at.resigns(&unrolled, Color::White));
    }
}
