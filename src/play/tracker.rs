//! One game's state as its stream tells it, and what the client must do next: no I/O, so
//! reconnects, duplicates and every event order are testable as plain data.

use super::events::GameEvent;
use crate::serve::{Clocks, GameOver, GameStatus, MoveTree, Seat, ServerTimeControl};

/// What the client must do after an event.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Submit our dice seed (the opening roll has not been made).
    Seed,
    /// Our roll is pending: choose and submit a turn (or resign).
    Play {
        /// The version of the roll (acted on once).
        version: u64,
        /// The position with its dice.
        dfen: String,
        /// Remaining ms per side, if clocked.
        clocks: Option<Clocks>,
        /// The server's tree; `None` over its inline cap.
        tree: Option<MoveTree>,
    },
    /// A draw offer waits for our answer (before the roll).
    AnswerDraw {
        /// The version of the offer (answered once).
        version: u64,
        /// The position the offer stands in.
        fen: String,
    },
    /// The server refused one of our commands (logged; the synchronous verdict drove the
    /// retry already).
    Refused(String),
    /// The game is over.
    Finished(GameOver),
}

/// One game seen from our seat.
#[derive(Clone, Debug)]
pub struct GameTracker {
    seat: Seat,
    time_control: Option<ServerTimeControl>,
    fen: Option<String>,
    may_offer_draw: bool,
    played: Option<u64>,
    answered: Option<u64>,
    seeded: bool,
    finished: bool,
}

impl GameTracker {
    /// A game in which we sit at `seat`, under `time_control` (from `GET /bot/games`).
    pub fn new(seat: Seat, time_control: Option<ServerTimeControl>) -> GameTracker {
        GameTracker {
            seat,
            time_control,
            fen: None,
            may_offer_draw: false,
            played: None,
            answered: None,
            seeded: false,
            finished: false,
        }
    }

    /// Our seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The time control, once known.
    pub fn time_control(&self) -> Option<ServerTimeControl> {
        self.time_control
    }

    /// Whether the last snapshot let us offer a draw this turn.
    pub fn may_offer_draw(&self) -> bool {
        self.may_offer_draw
    }

    /// Whether the game has ended.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The actions `event` calls for, in order. A roll or a draw offer already acted on
    /// (the same version seen again after a reconnect) calls for nothing.
    pub fn on_event(&mut self, event: &GameEvent) -> Vec<Action> {
        let mut out = Vec::new();
        if self.finished {
            return out;
        }
        match event {
            GameEvent::Snapshot { state, history, .. } => {
                if let Some(tc) = state.time_control {
                    self.time_control = Some(tc);
                }
                self.fen = Some(state.dfen.clone());
                self.may_offer_draw = state.may_offer_draw == Some(true);
                if let Some(GameStatus::Ended { over }) = &state.status {
                    self.finished = true;
                    out.push(Action::Finished(over.clone()));
                    return out;
                }
                // Before the opening roll (the server withholds it for the seeds a while);
                // after it, a seed is too late and ignored.
                if !self.seeded && history.is_empty() && !state.dice_pending {
                    self.seeded = true;
                    out.push(Action::Seed);
                }
                if state.active_seat == self.seat {
                    if state.dice_pending {
                        self.play(
                            state.version,
                            &state.dfen,
                            state.clocks,
                            state.legal_moves.clone(),
                            &mut out,
                        );
                    } else if state.draw_offer.is_some_and(|d| d.pending) {
                        self.answer(state.version, &mut out);
                    }
                }
            }
            GameEvent::DiceRolled {
                v,
                seat,
                dfen,
                clocks,
                legal_moves,
                ..
            } => {
                self.fen = Some(dfen.clone());
                if *seat == self.seat {
                    self.play(*v, dfen, *clocks, legal_moves.clone(), &mut out);
                }
            }
            GameEvent::TurnPlayed { fen_after, .. } => {
                self.fen = Some(fen_after.clone());
                // The alternation rule is the server's; the next snapshot tells us again.
                self.may_offer_draw = false;
            }
            GameEvent::DrawOffered { v, by } => {
                if *by != self.seat {
                    self.answer(*v, &mut out);
                }
            }
            GameEvent::DrawDeclined { .. } => {}
            GameEvent::GameEnded { over, .. } => {
                self.finished = true;
                out.push(Action::Finished(over.clone()));
            }
            GameEvent::Rejected { seat, reason, .. } => {
                if *seat == self.seat {
                    out.push(Action::Refused(reason.clone()));
                }
            }
        }
        out
    }

    /// Forget that the roll `version` was acted on (its turn never reached the server), so
    /// the next snapshot that shows it pending plays it again.
    pub fn retry_play(&mut self, version: u64) {
        if self.played == Some(version) {
            self.played = None;
        }
    }

    /// Forget that the draw offer `version` was answered (the answer never arrived).
    pub fn retry_answer(&mut self, version: u64) {
        if self.answered == Some(version) {
            self.answered = None;
        }
    }

    fn play(
        &mut self,
        version: u64,
        dfen: &str,
        clocks: Option<Clocks>,
        tree: Option<MoveTree>,
        out: &mut Vec<Action>,
    ) {
        if self.played.is_some_and(|p| p >= version) {
            return;
        }
        self.played = Some(version);
        out.push(Action::Play {
            version,
            dfen: dfen.to_owned(),
            clocks,
            tree,
        });
    }

    fn answer(&mut self, version: u64, out: &mut Vec<Action>) {
        if self.answered.is_some_and(|a| a >= version) {
            return;
        }
        self.answered = Some(version);
        out.push(Action::AnswerDraw {
            version,
            fen: self.fen.clone().unwrap_or_default(),
        });
    }
}
