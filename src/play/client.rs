//! The client: who we are, which games we sit in (resumed after a restart), which
//! challenges we take, one thread per game, the account stream as a wake-up call.

use super::api::{Accepted, Api, ApiError};
use super::backoff::Backoff;
use super::config::{PlayConfig, PlayControl};
use super::events::{parse_account_line, AccountEvent, Line};
use super::policy::Judgement;
use super::worker::{play_game, GameSummary, Shared};
use crate::bots::{bot_by_id, BotBuildError};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Why the client stopped short.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The bot could not be built.
    #[error("{0}")]
    Bot(#[from] BotBuildError),
    /// The server refused us or the URL is wrong (a retry cannot help).
    #[error("{0}")]
    Api(#[from] ApiError),
}

/// What a run did.
#[derive(Clone, Debug, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayReport {
    /// The account (`bot:team:<team>:<name>`).
    pub account: String,
    /// Every game finished (or abandoned) during the run, in the order they ended.
    pub games: Vec<GameSummary>,
    /// Challenges accepted.
    pub accepted: usize,
    /// Challenges declined.
    pub declined: usize,
}

/// Run the client until `config.games` games have finished or `control` stops it.
pub fn run(config: PlayConfig, control: Arc<PlayControl>) -> Result<PlayReport, PlayError> {
    let bot = Arc::from(bot_by_id(&config.bot, &config.bot_options)?);
    let api = Api::new(&config.server, &config.token, config.http_timeout)?;
    let shared = Arc::new(Shared {
        api,
        bot,
        config,
        control,
    });
    Client::new(shared).run()
}

struct Client {
    shared: Arc<Shared>,
    running: HashMap<String, JoinHandle<GameSummary>>,
    ended: HashSet<String>,
    declined: HashSet<String>,
    waiting: HashSet<String>,
    report: PlayReport,
    backoff: Backoff,
}

impl Client {
    fn new(shared: Arc<Shared>) -> Client {
        let backoff = Backoff::new(
            shared.config.backoff_first,
            shared.config.backoff_cap,
            0x5eed,
        );
        Client {
            shared,
            running: HashMap::new(),
            ended: HashSet::new(),
            declined: HashSet::new(),
            waiting: HashSet::new(),
            report: PlayReport::default(),
            backoff,
        }
    }

    fn log(&self, event: &str, fields: serde_json::Value) {
        self.shared.config.log(event, fields);
    }

    fn control(&self) -> &PlayControl {
        &self.shared.control
    }

    fn run(mut self) -> Result<PlayReport, PlayError> {
        let account = loop {
            match self.shared.api.account() {
                Ok(a) => break a,
                Err(e) if e.is_transient() && !self.control().is_quitting() => {
                    let wait = self.backoff.next_delay(e.retry_after());
                    self.log(
                        "retry",
                        json!({"reason": e.to_string(), "waitMs": wait.as_millis() as u64}),
                    );
                    std::thread::sleep(wait);
                }
                Err(e) => return Err(e.into()),
            }
        };
        self.backoff.reset();
        self.report.account = account.id.clone();
        self.log(
            "started",
            json!({"account": account.id, "server": self.shared.api.base(), "bot": self.shared.config.bot}),
        );
        self.declare_capacity();
        let (wake_tx, wake_rx) = crossbeam_channel::unbounded();
        if self.shared.config.stream {
            let shared = self.shared.clone();
            std::thread::Builder::new()
                .name("account-stream".into())
                .spawn(move || account_stream(&shared, &wake_tx))
                .expect("a thread starts");
        }
        self.serve(&wake_rx)?;
        self.log("stopped", json!({"report": self.report}));
        Ok(self.report)
    }

    /// Tell the server how many games we hold (`--max-games`), so it seats no more: the
    /// server's default for a registered bot is one. A failure is logged, not fatal (the
    /// policy still caps the games we accept).
    fn declare_capacity(&self) {
        if !self.shared.config.declare_capacity {
            return;
        }
        let n = u32::try_from(self.shared.config.challenges.max_games).unwrap_or(u32::MAX);
        match self.shared.api.declare_capacity(n) {
            Ok(Some(c)) => self.log("capacity", json!({"declared": c})),
            Ok(None) => self.log(
                "capacity",
                json!({"declared": null, "reason": "not a registered bot: the server seats it without a limit"}),
            ),
            Err(e) => self.log("capacity-failed", json!({"reason": e.to_string()})),
        }
    }

    /// The loop: reap ended games, pick up live ones, judge challenges, wait for the next
    /// poll or a wake-up from the account stream.
    fn serve(&mut self, wake: &Receiver<()>) -> Result<(), PlayError> {
        let mut next_poll = Instant::now();
        loop {
            if self.reap() {
                // A game ended: a waiting challenge may be taken now.
                next_poll = Instant::now();
            }
            if self.control().is_quitting() || self.done() {
                return Ok(());
            }
            if Instant::now() >= next_poll {
                next_poll = match self.sync() {
                    Ok(again) => {
                        self.backoff.reset();
                        let after = if again {
                            Duration::ZERO
                        } else {
                            self.shared.config.poll
                        };
                        Instant::now() + after
                    }
                    Err(e) if e.is_transient() => {
                        let wait = self.backoff.next_delay(e.retry_after());
                        self.log(
                            "retry",
                            json!({"reason": e.to_string(), "waitMs": wait.as_millis() as u64}),
                        );
                        Instant::now() + wait
                    }
                    Err(e) => return Err(e.into()),
                };
            }
            // The server is polled every `poll`; the game threads are reaped (locally) every
            // 250 ms while any runs.
            let mut wait = next_poll.saturating_duration_since(Instant::now());
            if !self.running.is_empty() {
                wait = wait.min(Duration::from_millis(250));
            }
            match wake.recv_timeout(wait) {
                Ok(()) => {
                    while wake.try_recv().is_ok() {}
                    next_poll = Instant::now();
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {}
            }
        }
    }

    /// Whether the run is over: the game quota reached (or draining) and nothing running.
    fn done(&self) -> bool {
        self.running.is_empty()
            && (self.control().is_draining()
                || self
                    .shared
                    .config
                    .games
                    .is_some_and(|n| self.report.games.len() >= n))
    }

    /// Whether more games may start: not draining, and the quota not yet taken by ended
    /// and running games.
    fn taking(&self) -> bool {
        !self.control().is_draining()
            && self
                .shared
                .config
                .games
                .is_none_or(|n| self.report.games.len() + self.running.len() < n)
    }

    /// Collect the games whose threads ended; whether any did.
    fn reap(&mut self) -> bool {
        let ended: Vec<String> = self
            .running
            .iter()
            .filter(|(_, h)| h.is_finished())
            .map(|(id, _)| id.clone())
            .collect();
        let any = !ended.is_empty();
        for id in ended {
            let handle = self.running.remove(&id).expect("listed above");
            let summary = handle.join().unwrap_or_else(|_| GameSummary {
                game_id: id.clone(),
                seat: crate::serve::Seat::Spectator,
                over: None,
                turns: 0,
                fallbacks: 0,
                resigned: false,
            });
            self.log("game-ended", json!({"summary": summary}));
            self.ended.insert(id);
            self.report.games.push(summary);
        }
        any
    }

    /// One poll: the games we sit in (started on their threads), then the challenges.
    /// `Ok(true)`: something was accepted, poll again at once (to seat its game).
    fn sync(&mut self) -> Result<bool, ApiError> {
        let games = self.shared.api.games()?;
        for g in games.games {
            if self.running.contains_key(&g.game_id) || self.ended.contains(&g.game_id) {
                continue;
            }
            // Past the quota a seated game is still played (the server seated us); only
            // new challenges are refused.
            if g.seat == crate::serve::Seat::Spectator {
                continue;
            }
            self.log(
                "game-start",
                json!({"game": g.game_id, "seat": g.seat, "timeControl": g.time_control, "version": g.version}),
            );
            let shared = self.shared.clone();
            let id = g.game_id.clone();
            let handle = std::thread::Builder::new()
                .name(format!("game-{id}"))
                .spawn(move || play_game(&shared, &g))
                .expect("a thread starts");
            self.running.insert(id, handle);
        }
        if !self.taking() {
            return Ok(false);
        }
        let challenges = self.shared.api.challenges()?;
        let mut accepted_any = false;
        for ch in challenges.incoming {
            if self.declined.contains(&ch.id) || !self.taking() {
                continue;
            }
            let judgement = self.shared.config.challenges.judge(&ch, self.running.len());
            match judgement {
                Judgement::Accept => match self.shared.api.accept(&ch.id)? {
                    Accepted::Game(game) => {
                        self.report.accepted += 1;
                        self.log(
                            "accepted",
                            json!({"challenge": ch.id, "challenger": ch.challenger.to_string(), "game": game, "timeControl": ch.time_control, "rated": ch.rated}),
                        );
                        accepted_any = true;
                        // Seat it now: the next `GET /bot/games` lists it.
                        break;
                    }
                    Accepted::Busy => {
                        self.log("busy", json!({"challenge": ch.id}));
                        break;
                    }
                    Accepted::Gone => self.log("challenge-gone", json!({"challenge": ch.id})),
                },
                Judgement::Decline(reason) => {
                    self.shared.api.decline(&ch.id)?;
                    self.report.declined += 1;
                    self.declined.insert(ch.id.clone());
                    self.log(
                        "declined",
                        json!({"challenge": ch.id, "challenger": ch.challenger.to_string(), "reason": reason}),
                    );
                }
                Judgement::Wait => {
                    if self.waiting.insert(ch.id.clone()) {
                        self.log(
                            "challenge-waits",
                            json!({"challenge": ch.id, "running": self.running.len()}),
                        );
                    }
                }
            }
        }
        Ok(accepted_any)
    }
}

/// The account stream: every event wakes the client (which then polls for the facts: the
/// event does not carry a challenge's time control); reconnected with backoff.
fn account_stream(shared: &Shared, wake: &Sender<()>) {
    let cfg = &shared.config;
    let mut backoff = Backoff::new(cfg.backoff_first, cfg.backoff_cap, 0xacc0);
    let log = |event: &str, mut fields: serde_json::Value| {
        if let Some(o) = fields.as_object_mut() {
            o.insert("stream".into(), json!("account"));
        }
        cfg.log(event, fields);
    };
    while !shared.control.is_quitting() {
        match shared.api.account_stream() {
            Ok(mut lines) => loop {
                match lines.next_line() {
                    Ok(Some(line)) => match parse_account_line(&line) {
                        Ok(Line::KeepAlive) => {}
                        Ok(Line::Event(e)) => {
                            backoff.reset();
                            let kind = match &e {
                                AccountEvent::ChallengeReceived { .. } => "challenge-received",
                                AccountEvent::ChallengeDeclined { .. } => "challenge-declined",
                                AccountEvent::GameStart { .. } => "game-started",
                            };
                            log(kind, json!({"detail": e}));
                            if wake.send(()).is_err() {
                                return;
                            }
                        }
                        Ok(Line::Unknown(kind)) => log("unknown-event", json!({"kind": kind})),
                        Err(e) => log("bad-event", json!({"reason": e.to_string()})),
                    },
                    Ok(None) => {
                        log("stream-closed", json!({}));
                        break;
                    }
                    Err(e) => {
                        log("stream-error", json!({"reason": e.to_string()}));
                        break;
                    }
                }
                if shared.control.is_quitting() {
                    return;
                }
            },
            Err(e) if !e.is_transient() => {
                log("stream-refused", json!({"reason": e.to_string()}));
                if matches!(e, ApiError::Unauthorized { .. }) {
                    return;
                }
            }
            Err(e) => log("stream-error", json!({"reason": e.to_string()})),
        }
        let wait = backoff.next_delay(None);
        log("reconnect", json!({"waitMs": wait.as_millis() as u64}));
        std::thread::sleep(wait);
        // Whatever happened while it was down is recovered by polling.
        if wake.send(()).is_err() {
            return;
        }
    }
}
