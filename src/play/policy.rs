//! Which challenges the client takes, and when it resigns.

use super::rest::Challenge;
use crate::board::Position;
use crate::bots::win_probability;
use crate::serve::ServerTimeControl;

/// A kind of time control, as `--time-controls` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ControlKind {
    /// `unlimited`: no clocks.
    Unlimited,
    /// `sudden-death`: one clock, no increment.
    SuddenDeath,
    /// `fischer`: a clock plus an increment.
    Fischer,
    /// `per-move`: a fixed allowance per turn.
    PerMove,
}

impl ControlKind {
    /// Every kind.
    pub const ALL: [ControlKind; 4] = [
        ControlKind::Unlimited,
        ControlKind::SuddenDeath,
        ControlKind::Fischer,
        ControlKind::PerMove,
    ];

    /// The kind of `tc`.
    pub fn of(tc: &ServerTimeControl) -> ControlKind {
        match tc {
            ServerTimeControl::Unlimited {} => ControlKind::Unlimited,
            ServerTimeControl::SuddenDeath { .. } => ControlKind::SuddenDeath,
            ServerTimeControl::Fischer { .. } => ControlKind::Fischer,
            ServerTimeControl::PerMove { .. } => ControlKind::PerMove,
        }
    }

    /// The kind's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ControlKind::Unlimited => "unlimited",
            ControlKind::SuddenDeath => "sudden-death",
            ControlKind::Fischer => "fischer",
            ControlKind::PerMove => "per-move",
        }
    }

    /// The kind named `name`.
    pub fn parse(name: &str) -> Option<ControlKind> {
        ControlKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Rated, casual, or either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatedFilter {
    /// Take either.
    Any,
    /// Only rated offers.
    Rated,
    /// Only casual offers.
    Casual,
}

/// What to do with an incoming challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Accept it.
    Accept,
    /// Decline it, for this reason (logged; the API takes no reason).
    Decline(String),
    /// Leave it pending: we are at our game limit (the server keeps it ~5 minutes).
    Wait,
}

/// The challenge policy: time controls, rated or casual, and how many games at once.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengePolicy {
    /// The time-control kinds taken.
    pub controls: Vec<ControlKind>,
    /// Clocked games (sudden death, Fischer): at least this many seconds to start.
    pub min_initial_s: u32,
    /// Per-move games: at least this many seconds a turn.
    pub min_per_move_s: u32,
    /// Rated, casual or either.
    pub rated: RatedFilter,
    /// At most this many games at once.
    pub max_games: usize,
}

impl Default for ChallengePolicy {
    /// Every control with at least 30 s on the clock or 1 s a turn, rated or not, one game
    /// at a time (the server's own default declaration for a registered bot).
    fn default() -> Self {
        ChallengePolicy {
            controls: ControlKind::ALL.to_vec(),
            min_initial_s: 30,
            min_per_move_s: 1,
            rated: RatedFilter::Any,
            max_games: 1,
        }
    }
}

impl ChallengePolicy {
    /// The judgement on `challenge` while `active` games are running.
    pub fn judge(&self, challenge: &Challenge, active: usize) -> Judgement {
        let tc = &challenge.time_control;
        let kind = ControlKind::of(tc);
        if !self.controls.contains(&kind) {
            return Judgement::Decline(format!("time control {} not taken", kind.name()));
        }
        match *tc {
            ServerTimeControl::SuddenDeath { initial_seconds }
            | ServerTimeControl::Fischer {
                initial_seconds, ..
            } if initial_seconds < self.min_initial_s => {
                return Judgement::Decline(format!(
                    "{initial_seconds} s on the clock (at least {})",
                    self.min_initial_s
                ));
            }
            ServerTimeControl::PerMove { seconds_per_move }
                if seconds_per_move < self.min_per_move_s =>
            {
                return Judgement::Decline(format!(
                    "{seconds_per_move} s a turn (at least {})",
                    self.min_per_move_s
                ));
            }
            _ => {}
        }
        match (self.rated, challenge.rated) {
            (RatedFilter::Rated, false) => return Judgement::Decline("casual offer".into()),
            (RatedFilter::Casual, true) => return Judgement::Decline("rated offer".into()),
            _ => {}
        }
        if active >= self.max_games {
            return Judgement::Wait;
        }
        Judgement::Accept
    }
}

/// When to resign: never by default (dice turn games around; a bot that resigns gives away
/// the comebacks).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ResignPolicy {
    /// Resign a rolled position whose win probability for the mover (the bots' logistic of
    /// material and king safety, `bots::win_probability`) is below this, unless the roll
    /// captures the king. `None`: never.
    pub below: Option<f64>,
}

impl ResignPolicy {
    /// Whether the mover of the rolled position `pos` resigns.
    pub fn resigns(&self, pos: &Position) -> bool {
        let Some(below) = self.below else {
            return false;
        };
        if win_probability(pos, pos.side_to_move()) >= below {
            return false;
        }
        !crate::rules::legal_paths(pos)
            .iter()
            .any(|p| p.captures_king())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::events::Principal;

    fn challenge(tc: ServerTimeControl, rated: bool) -> Challenge {
        Challenge {
            id: "c".into(),
            challenger: Principal::Bot {
                team: "t".into(),
                name: "n".into(),
            },
            target: None,
            time_control: tc,
            rated,
        }
    }

    #[test]
    fn the_policy_checks_control_clock_rating_and_capacity() {
        let p = ChallengePolicy {
            controls: vec![ControlKind::Fischer, ControlKind::PerMove],
            rated: RatedFilter::Rated,
            max_games: 2,
            ..ChallengePolicy::default()
        };
        let fischer = |s| ServerTimeControl::Fischer {
            initial_seconds: s,
            increment_seconds: 2,
        };
        assert_eq!(
            p.judge(&challenge(fischer(180), true), 0),
            Judgement::Accept
        );
        assert_eq!(p.judge(&challenge(fischer(180), true), 2), Judgement::Wait);
        assert!(matches!(
            p.judge(&challenge(fischer(10), true), 0),
            Judgement::Decline(r) if r.contains("10 s")
        ));
        assert!(matches!(
            p.judge(&challenge(fischer(180), false), 0),
            Judgement::Decline(r) if r == "casual offer"
        ));
        assert!(matches!(
            p.judge(&challenge(ServerTimeControl::Unlimited {}, true), 0),
            Judgement::Decline(r) if r.contains("unlimited")
        ));
        let per_move = |s| ServerTimeControl::PerMove {
            seconds_per_move: s,
        };
        assert_eq!(p.judge(&challenge(per_move(5), true), 1), Judgement::Accept);
        assert!(matches!(
            p.judge(&challenge(per_move(0), true), 1),
            Judgement::Decline(_)
        ));
        for k in ControlKind::ALL {
            assert_eq!(ControlKind::parse(k.name()), Some(k));
        }
    }

    #[test]
    fn resigning_needs_a_lost_position_and_no_king_capture() {
        let never = ResignPolicy::default();
        let lost = Position::from_dfen("qqqqkqqq/8/8/8/8/8/8/4K3 w - - 0 1 PPP").unwrap();
        assert!(!never.resigns(&lost));
        let at = ResignPolicy { below: Some(0.05) };
        assert!(at.resigns(&lost));
        // The same material, but the roll takes the king: play it.
        let capture = Position::from_dfen("qqqqkqqq/8/8/8/8/8/8/4K3 w - - 0 1 KKK").unwrap();
        let near = Position::from_dfen("qqqqqqqq/8/8/8/8/8/3k4/4K3 w - - 0 1 KKK").unwrap();
        assert!(at.resigns(&capture), "the white king cannot reach e8");
        assert!(!at.resigns(&near));
        let start =
            Position::from_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB")
                .unwrap();
        assert!(!at.resigns(&start));
    }
}
