//! Which challenges the client takes (when it resigns: `bots::ResignPolicy`).

use super::rest::Challenge;
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
}
