//! Draw and doubling-cube policies (docs/search.md §2.5).

use crate::board::Position;
use crate::eval::{king_safety, Material};
use dicechess_kernels::{Color, PieceType, Square};
use rand_core::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// `evaluate(s, c)`: material plus own king safety, centipawns.
fn evaluate(pos: &Position, color: Color) -> i32 {
    Material::score(pos, color) + king_safety(pos, color)
}

/// `1 / (1 + e^(−evaluate/400))`: the bots' win probability for `color`.
pub fn win_probability(pos: &Position, color: Color) -> f64 {
    1.0 / (1.0 + (-(evaluate(pos, color) as f64) / 400.0).exp())
}

/// The "dead draw" test: no pawns, knights, rooks or queens; at most one bishop a side;
/// kings not adjacent; each lone bishop's opposing king on the other square colour.
pub fn dead_draw(pos: &Position) -> bool {
    for t in [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        if pos.pieces(t).any() {
            return false;
        }
    }
    let (wk, bk) = (
        pos.piece_bb(Color::White, PieceType::King).first(),
        pos.piece_bb(Color::Black, PieceType::King).first(),
    );
    let (Some(wk), Some(bk)) = (wk, bk) else {
        return false;
    };
    let dist = |a: Square, b: Square| {
        (a.file() as i32 - b.file() as i32)
            .abs()
            .max((a.rank() as i32 - b.rank() as i32).abs())
    };
    if dist(wk, bk) <= 1 {
        return false;
    }
    let parity = |s: Square| (s.file() + s.rank()) % 2;
    for (c, their_king) in [(Color::White, bk), (Color::Black, wk)] {
        let bishops = pos.piece_bb(c, PieceType::Bishop);
        if bishops.count() > 1 {
            return false;
        }
        if let Some(b) = bishops.first() {
            if parity(b) == parity(their_king) {
                return false;
            }
        }
    }
    true
}

/// A bot's draw and doubling behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawDoublePolicy {
    /// Never offer; take a double when p(responder) > 0.25; never draw.
    Default,
    /// Coin flips: offer double 15 %, take 50 %, offer draw 5 %, accept 20 %.
    Random,
    /// Offer double p > 0.70, take p > 0.35; offer a draw after move 30 when |eval| < 50;
    /// accept when eval < −100.
    Cautious,
    /// Offer double p > 0.55, take p > 0.22; never draw.
    Aggressive,
    /// Like the Monte-Carlo bot: offer 0.65, take 0.30; draws on dead-draw material (accept
    /// also when eval < −200). Uses the logistic estimate, not rollouts, to stay instant.
    MonteCarlo,
}

impl DrawDoublePolicy {
    /// Offer a double as `mover`?
    pub fn offer_double(self, pos: &Position, mover: Color, rng: &mut Xoshiro256PlusPlus) -> bool {
        let p = win_probability(pos, mover);
        match self {
            DrawDoublePolicy::Default => false,
            DrawDoublePolicy::Random => unit(rng) < 0.15,
            DrawDoublePolicy::Cautious => p > 0.70,
            DrawDoublePolicy::Aggressive => p > 0.55,
            DrawDoublePolicy::MonteCarlo => p > 0.65,
        }
    }

    /// Accept a double as `responder` (the colour being asked to take)?
    pub fn accept_double(
        self,
        pos: &Position,
        responder: Color,
        rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        let p = win_probability(pos, responder);
        match self {
            DrawDoublePolicy::Default => p > 0.25,
            DrawDoublePolicy::Random => unit(rng) < 0.50,
            DrawDoublePolicy::Cautious => p > 0.35,
            DrawDoublePolicy::Aggressive => p > 0.22,
            DrawDoublePolicy::MonteCarlo => p > 0.30,
        }
    }

    /// Offer a draw as `mover`?
    pub fn offer_draw(self, pos: &Position, mover: Color, rng: &mut Xoshiro256PlusPlus) -> bool {
        match self {
            DrawDoublePolicy::Default | DrawDoublePolicy::Aggressive => false,
            DrawDoublePolicy::Random => unit(rng) < 0.05,
            DrawDoublePolicy::Cautious => pos.fullmove() > 30 && evaluate(pos, mover).abs() < 50,
            DrawDoublePolicy::MonteCarlo => dead_draw(pos),
        }
    }

    /// Accept a draw offered to `color`?
    pub fn accept_draw(self, pos: &Position, color: Color, rng: &mut Xoshiro256PlusPlus) -> bool {
        match self {
            DrawDoublePolicy::Default | DrawDoublePolicy::Aggressive => false,
            DrawDoublePolicy::Random => unit(rng) < 0.20,
            DrawDoublePolicy::Cautious => evaluate(pos, color) < -100,
            DrawDoublePolicy::MonteCarlo => dead_draw(pos) || evaluate(pos, color) < -200,
        }
    }
}

fn unit(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}
