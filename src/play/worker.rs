//! One game's thread: its stream read (and reconnected) until the game ends, each roll of
//! ours answered with the bot's turn inside the clock's budget.

use super::api::{Api, ApiError, Verdict};
use super::backoff::Backoff;
use super::config::{PlayConfig, PlayControl};
use super::events::{parse_game_line, Line};
use super::rest::{BotActiveGame, MoveBody};
use super::tracker::{Action, GameTracker};
use crate::board::Position;
use crate::bots::{choose_bounded, fast_bounded, root_budget, Bot, Turn, FAST_ROOT_UNITS};
use crate::rules::{legal_paths, Budget};
use crate::serve::{color_of, think_budget_ms, Clocks, GameOver, MoveTree, Seat};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::json;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a game ended for the client.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameSummary {
    /// The game.
    pub game_id: String,
    /// Our seat.
    pub seat: Seat,
    /// The result, when the game was seen to end (`None`: stopped, or the server forgot it).
    pub over: Option<GameOver>,
    /// Turns we submitted.
    pub turns: u32,
    /// Turns answered by a fallback (the root over budget, or the server's tree
    /// overruling our choice).
    pub fallbacks: u32,
    /// Whether we resigned.
    pub resigned: bool,
}

/// What a game's thread shares with the client.
pub(super) struct Shared {
    pub(super) api: Api,
    pub(super) bot: Arc<dyn Bot>,
    pub(super) config: PlayConfig,
    pub(super) control: Arc<PlayControl>,
}

/// Play `game` to its end (or until told to quit).
pub(super) fn play_game(shared: &Shared, game: &BotActiveGame) -> GameSummary {
    let mut w = Worker {
        shared,
        id: game.game_id.clone(),
        tracker: GameTracker::new(game.seat, Some(game.time_control)),
        summary: GameSummary {
            game_id: game.game_id.clone(),
            seat: game.seat,
            over: None,
            turns: 0,
            fallbacks: 0,
            resigned: false,
        },
    };
    w.run();
    w.summary
}

struct Worker<'a> {
    shared: &'a Shared,
    id: String,
    tracker: GameTracker,
    summary: GameSummary,
}

impl Worker<'_> {
    fn log(&self, event: &str, mut fields: serde_json::Value) {
        if let Some(o) = fields.as_object_mut() {
            o.insert("game".into(), json!(self.id));
        }
        self.shared.config.log(event, fields);
    }

    fn run(&mut self) {
        let cfg = &self.shared.config;
        let mut backoff = Backoff::new(cfg.backoff_first, cfg.backoff_cap, seed_of(&self.id, 0));
        while !self.shared.control.is_quitting() {
            let mut lines = match self.shared.api.game_stream(&self.id) {
                Ok(lines) => lines,
                Err(e) => {
                    if let ApiError::Status { status: 404, .. } = e {
                        self.log("game-gone", json!({"reason": e.to_string()}));
                        return;
                    }
                    if !e.is_transient() {
                        self.log("game-error", json!({"reason": e.to_string()}));
                        return;
                    }
                    let wait = backoff.next_delay(e.retry_after());
                    self.log(
                        "reconnect",
                        json!({"stream": "game", "reason": e.to_string(), "waitMs": wait.as_millis() as u64}),
                    );
                    std::thread::sleep(wait);
                    continue;
                }
            };
            loop {
                if self.shared.control.is_quitting() {
                    return;
                }
                let line = match lines.next_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => {
                        self.log("stream-closed", json!({"stream": "game"}));
                        break;
                    }
                    Err(e) => {
                        self.log(
                            "stream-error",
                            json!({"stream": "game", "reason": e.to_string()}),
                        );
                        break;
                    }
                };
                match parse_game_line(&line) {
                    Ok(Line::KeepAlive) => {}
                    Ok(Line::Unknown(kind)) => self.log("unknown-event", json!({"kind": kind})),
                    Ok(Line::Event(event)) => {
                        backoff.reset();
                        for action in self.tracker.on_event(&event) {
                            self.act(action);
                        }
                        if self.tracker.is_finished() {
                            return;
                        }
                    }
                    Err(e) => self.log("bad-event", json!({"reason": e.to_string()})),
                }
            }
            let wait = backoff.next_delay(None);
            self.log(
                "reconnect",
                json!({"stream": "game", "waitMs": wait.as_millis() as u64}),
            );
            std::thread::sleep(wait);
        }
    }

    fn act(&mut self, action: Action) {
        match action {
            Action::Seed => {
                if self.shared.config.seed_dice {
                    let seed = dice_seed(&self.id);
                    if let Err(e) = self.shared.api.seed(&self.id, &seed) {
                        self.log("seed-failed", json!({"reason": e.to_string()}));
                    }
                }
            }
            Action::Play {
                version,
                dfen,
                clocks,
                tree,
            } => self.play(version, &dfen, clocks, tree),
            Action::AnswerDraw { version, fen } => self.answer_draw(version, &fen),
            Action::Refused(reason) => self.log("rejected", json!({"reason": reason})),
            Action::Finished(over) => {
                self.log(
                    "game-over",
                    json!({"over": over, "seat": self.tracker.seat()}),
                );
                self.summary.over = Some(over);
            }
        }
    }

    fn answer_draw(&mut self, version: u64, fen: &str) {
        let accept = Position::from_dfen(fen).is_ok_and(|pos| {
            let color = color_of(self.tracker.seat()).unwrap_or(pos.side_to_move());
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed_of(&self.id, version));
            self.shared.bot.policy().accept_draw(&pos, color, &mut rng)
        });
        match self.shared.api.answer_draw(&self.id, accept) {
            Ok(v) => self.log(
                "draw-answered",
                json!({"accept": accept, "verdict": verdict_text(&v)}),
            ),
            Err(e) => {
                self.log("draw-answer-failed", json!({"reason": e.to_string()}));
                self.tracker.retry_answer(version);
            }
        }
    }

    fn play(&mut self, version: u64, dfen: &str, clocks: Option<Clocks>, tree: Option<MoveTree>) {
        let started = Instant::now();
        if tree.as_ref().is_some_and(|t| t.0.is_empty()) {
            // The server plays a forced pass itself.
            self.log("forced-pass", json!({"version": version}));
            return;
        }
        let pos = match Position::from_dfen(dfen) {
            Ok(p) => p,
            Err(e) => {
                // Their tree is still playable without our rules.
                self.log("bad-dfen", json!({"dfen": dfen, "reason": e.to_string()}));
                let moves = self.server_first_path(version, tree.as_ref());
                self.summary.fallbacks += 1;
                self.submit(version, moves, false, tree.as_ref(), started);
                return;
            }
        };
        let color = color_of(self.tracker.seat()).unwrap_or(pos.side_to_move());
        if self.shared.config.resign.resigns(&pos, color) {
            let verdict = self.shared.api.resign(&self.id);
            self.log("resigned", json!({"version": version, "verdict": verdict.as_ref().map(verdict_text).map_err(|e| e.to_string())}));
            if verdict.is_ok() {
                self.summary.resigned = true;
                return;
            }
        }
        let cfg = &self.shared.config;
        let budget_ms = think_budget_ms(
            self.tracker.time_control(),
            clocks,
            color,
            &pos,
            cfg.max_think_ms,
            cfg.overhead_ms,
        );
        let think = Duration::from_millis(budget_ms);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed_of(&self.id, version));
        let bot = self.shared.bot.as_ref();
        let chosen = choose_bounded(
            bot,
            &pos,
            &mut Turn {
                rng: &mut rng,
                deadline: Some(started + think),
            },
            &mut root_budget(Some(think)),
        )
        .or_else(|_| fast_bounded(bot, &pos, &mut rng, &mut Budget::new(FAST_ROOT_UNITS)));
        let (mut moves, mut fallback) = match chosen {
            Ok(b) => (
                b.choice()
                    .path
                    .map(|p| p.moves().iter().map(|m| m.uci()).collect::<Vec<_>>())
                    .unwrap_or_default(),
                matches!(b, crate::bots::Bounded::Fallback { .. }),
            ),
            Err(e) => {
                self.log("engine-failed", json!({"reason": e.to_string()}));
                (self.server_first_path(version, tree.as_ref()), true)
            }
        };
        if moves.is_empty() && legal_paths(&pos).is_empty() {
            self.log("forced-pass", json!({"version": version}));
            return;
        }
        if let Some(t) = &tree {
            if !t.has_path(&moves) {
                // The server's tree is authoritative: never answer outside it.
                self.log("choice-not-in-tree", json!({"moves": moves}));
                moves = t.first_path();
                fallback = true;
            }
        }
        if fallback {
            self.summary.fallbacks += 1;
        }
        let offer = self.tracker.may_offer_draw() && {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed_of(&self.id, version) ^ 1);
            bot.policy().offer_draw(&pos, color, &mut rng)
        };
        self.log(
            "think",
            json!({"version": version, "budgetMs": budget_ms, "thinkMs": started.elapsed().as_secs_f64() * 1e3, "moves": moves, "fallback": fallback}),
        );
        self.submit(version, moves, offer, tree.as_ref(), started);
    }

    /// The first path of the server's tree (fetched when not inline), or a pass.
    fn server_first_path(&self, version: u64, tree: Option<&MoveTree>) -> Vec<String> {
        if let Some(t) = tree {
            return t.first_path();
        }
        match self.shared.api.moves(&self.id) {
            Ok(m) if m.version == version => m.legal_moves.first_path(),
            Ok(m) => {
                self.log(
                    "stale-tree",
                    json!({"version": version, "treeVersion": m.version}),
                );
                Vec::new()
            }
            Err(e) => {
                self.log("tree-failed", json!({"reason": e.to_string()}));
                Vec::new()
            }
        }
    }

    /// Submit the turn: a transport failure is retried (a turn that did arrive is then
    /// refused "not your turn", harmless); a turn refused as illegal is replaced once by the
    /// server tree's first path.
    fn submit(
        &mut self,
        version: u64,
        mut moves: Vec<String>,
        offer_draw: bool,
        tree: Option<&MoveTree>,
        started: Instant,
    ) {
        let mut replaced = false;
        let mut delay = Duration::from_millis(100);
        for _attempt in 0..4 {
            let body = MoveBody {
                moves: moves.clone(),
                offer_draw,
                resign: false,
            };
            match self.shared.api.play(&self.id, &body) {
                Ok(Verdict::Applied(_)) | Ok(Verdict::Pending) => {
                    self.summary.turns += 1;
                    self.log(
                        "played",
                        json!({"version": version, "moves": moves, "offerDraw": offer_draw, "ms": started.elapsed().as_secs_f64() * 1e3}),
                    );
                    return;
                }
                Ok(Verdict::Refused(reason)) => {
                    self.log(
                        "refused",
                        json!({"version": version, "moves": moves, "reason": reason}),
                    );
                    if reason.contains("illegal") && !replaced {
                        replaced = true;
                        self.summary.fallbacks += 1;
                        moves = match tree {
                            Some(t) => t.first_path(),
                            None => self.server_first_path(version, None),
                        };
                        continue;
                    }
                    return;
                }
                Err(e) if e.is_transient() => {
                    self.log(
                        "submit-retry",
                        json!({"version": version, "reason": e.to_string()}),
                    );
                    std::thread::sleep(delay);
                    delay *= 2;
                }
                Err(e) => {
                    self.log(
                        "submit-failed",
                        json!({"version": version, "reason": e.to_string()}),
                    );
                    break;
                }
            }
        }
        // Not delivered: play it again when a snapshot shows the roll still pending.
        self.tracker.retry_play(version);
    }
}

fn verdict_text(v: &Verdict) -> String {
    match v {
        Verdict::Applied(_) => "applied".into(),
        Verdict::Refused(r) => format!("refused: {r}"),
        Verdict::Pending => "pending".into(),
    }
}

/// A per-decision seed: the game and the version, so a replay of the same decision draws
/// the same tie-breaks.
fn seed_of(game: &str, version: u64) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    game.hash(&mut h);
    version.hash(&mut h);
    h.finish()
}

/// 32 hex digits (128 bits) of fresh entropy for the dice: `RandomState` keys come from the
/// operating system's generator, different for every instance.
fn dice_seed(game: &str) -> String {
    let word = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        game.hash(&mut h);
        salt.hash(&mut h);
        std::time::SystemTime::now().hash(&mut h);
        h.finish()
    };
    format!("{:016x}{:016x}", word(1), word(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_seeds_are_long_enough_and_fresh() {
        let a = dice_seed("g");
        let b = dice_seed("g");
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(seed_of("g", 3), seed_of("g", 3));
        assert_ne!(seed_of("g", 3), seed_of("g", 4));
    }
}
