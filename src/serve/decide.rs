//! The answers: verification handshakes, and the game deliveries (through the duplicate
//! cache, the wait queue and the search pool).

use super::auth;
use super::dedup::{Answer, Key};
use super::limits::MAX_LEGACY_NONCE_BYTES;
use super::log::LogFields;
use super::reject::{Invalid, Rejection};
use super::state::App;
use super::think::{check_reachable, color_of, think_budget_ms};
use super::wire::{
    ActivationProof, DeliveryType, DoubleOfferAnswer, DoubleResponseAnswer, DrawAnswer,
    GameEnvelope, LegacyVerification, NonceEcho, TurnAnswer, VerificationV2,
};
use crate::board::Position;
use crate::bots::{
    choose_bounded, fallback_path, fast_bounded, root_budget, Bounded, BoundedError, Turn,
    FAST_ROOT_UNITS, MIN_ROOT_UNITS,
};
use crate::rules::{Budget, Budgeted, TurnGenerator};
use dicechess_kernels::Color;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::OwnedSemaphorePermit;

/// Why the engine gave no turn (logged; the client sees `strategy_failed`).
#[derive(Debug, thiserror::Error)]
enum EngineFailure {
    /// The bot failed, or the root budget proved no path legal.
    #[error(transparent)]
    Bounded(#[from] BoundedError),
    /// Not even the fallback's own budget found a legal turn.
    #[error("no legal turn found within {0} fallback units")]
    NoFallback(u64),
}

fn answer(body: &impl Serialize) -> Result<Answer, Rejection> {
    serde_json::to_vec(body)
        .map(Arc::new)
        .map_err(|e| Rejection::Strategy(format!("encoding the answer: {e}")))
}

fn shape<'a, T: serde::Deserialize<'a>>(kind: DeliveryType, raw: &'a [u8]) -> Result<T, Invalid> {
    serde_json::from_slice(raw).map_err(|error| Invalid::Shape {
        kind: kind.as_str(),
        error,
    })
}

fn non_blank(field: &'static str, value: &str) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        Err(Invalid::Blank(field))
    } else {
        Ok(())
    }
}

/// The version-less handshake: echo the nonce (unsigned allowed; nothing from it logged).
pub fn legacy_verification(raw: &[u8]) -> Result<Answer, Rejection> {
    let v: LegacyVerification = shape(DeliveryType::Verification, raw)?;
    non_blank("nonce", &v.nonce)?;
    if v.nonce.len() > MAX_LEGACY_NONCE_BYTES {
        return Err(Invalid::NonceTooLong(MAX_LEGACY_NONCE_BYTES).into());
    }
    answer(&NonceEcho { nonce: v.nonce })
}

/// The v2 activation challenge, already authenticated with the pending secret: the nonce
/// and the proof over the raw bytes.
pub fn verification_v2(app: &App, raw: &[u8]) -> Result<Answer, Rejection> {
    let v: VerificationV2 = shape(DeliveryType::Verification, raw)?;
    non_blank("bot.team", &v.bot.team)?;
    non_blank("bot.name", &v.bot.name)?;
    non_blank("setupId", &v.setup_id)?;
    non_blank("revision", &v.revision)?;
    if !auth::nonce_is_canonical(&v.nonce) {
        return Err(Invalid::NonceNotCanonical.into());
    }
    let Some(next) = &app.config.next_secret else {
        return Err(auth::AuthError::NotPending.into());
    };
    answer(&ActivationProof {
        proof: auth::proof(next, raw),
        nonce: v.nonce,
    })
}

/// Everything a game delivery decides on, checked.
struct Decision {
    kind: DeliveryType,
    env: GameEnvelope,
    color: Color,
    pos: Position,
}

fn validate(kind: DeliveryType, env: GameEnvelope) -> Result<Decision, Rejection> {
    let state = &env.state;
    non_blank("gameId", &env.game_id)?;
    let color = color_of(env.seat).ok_or(Invalid::Seat {
        seat: env.seat,
        active: state.active_seat,
    })?;
    let turn = kind == DeliveryType::YourTurn;
    let pre_roll = matches!(kind, DeliveryType::DrawDecision);
    if (turn || pre_roll) && env.seat != state.active_seat {
        return Err(Invalid::Seat {
            seat: env.seat,
            active: state.active_seat,
        }
        .into());
    }
    if (turn && !state.dice_pending) || (pre_roll && state.dice_pending) {
        return Err(Invalid::DicePending(state.dice_pending).into());
    }
    if pre_roll {
        if !state.draw_offer.is_some_and(|d| d.pending) {
            return Err(Invalid::NoDrawOffer.into());
        }
        if state.dfen.split_whitespace().count() != 6 {
            return Err(
                Invalid::Dfen("a drawDecision needs the six-field pre-roll DFEN".into()).into(),
            );
        }
    }
    let pos = Position::from_dfen(&state.dfen).map_err(|e| Invalid::Dfen(e.to_string()))?;
    if turn && pos.dice().is_empty() {
        return Err(Invalid::Dfen("a yourTurn needs the rolled dice (field 7)".into()).into());
    }
    if (turn || pre_roll) && pos.side_to_move() != color {
        return Err(Invalid::SideToMove.into());
    }
    check_reachable(&pos).map_err(|e| Rejection::Unreachable(format!("{}: {e}", state.dfen)))?;
    Ok(Decision {
        kind,
        env,
        color,
        pos,
    })
}

/// The decision inputs of a delivery, hashed: what must match for a repeat to be the same
/// delivery. The clocks tick between retries and are left out.
fn fingerprint(d: &Decision) -> [u8; 32] {
    let s = &d.env.state;
    let increment = match s.time_control {
        Some(super::wire::ServerTimeControl::Fischer {
            increment_seconds, ..
        }) => Some(increment_seconds),
        _ => None,
    };
    let inputs = serde_json::json!([
        d.kind.as_str(),
        s.dfen,
        increment,
        s.may_offer_draw == Some(true),
        s.draw_offer.map(|o| o.pending),
        s.legal_moves,
        d.env.decision_id,
        s.doubling,
    ]);
    Sha256::digest(inputs.to_string().as_bytes()).into()
}

/// A generator for one decision, from its identity and position (repeats draw alike).
fn decision_rng(d: &Decision) -> Xoshiro256PlusPlus {
    let mut h = Sha256::new();
    h.update(d.env.game_id.as_bytes());
    h.update(d.env.state.version.to_le_bytes());
    h.update(d.pos.to_dfen().as_bytes());
    let digest = h.finalize();
    let mut seed = [0u8; 8];
    seed.copy_from_slice(&digest[..8]);
    Xoshiro256PlusPlus::seed_from_u64(u64::from_le_bytes(seed))
}

/// A game delivery (authenticated): validated, then answered once per identity.
pub async fn game(
    app: &Arc<App>,
    kind: DeliveryType,
    raw: &[u8],
    started: Instant,
    fields: &mut LogFields,
) -> Result<Answer, Rejection> {
    let env: GameEnvelope = shape(kind, raw)?;
    fields.game = Some(env.game_id.clone());
    fields.version = Some(env.state.version);
    let d = validate(kind, env)?;
    let key = Key {
        game_id: d.env.game_id.clone(),
        seat: d.env.seat,
        version: d.env.state.version,
        kind,
    };
    let slot = app
        .dedup
        .slot(key.clone(), fingerprint(&d), Instant::now())?;
    let result = slot
        .get_or_try_init(|| async {
            match kind {
                DeliveryType::YourTurn => your_turn(app, &d, started, fields).await,
                _ => policy_decision(app, &d),
            }
        })
        .await
        .cloned();
    if result.is_err() {
        app.dedup.forget_failed(&key, &slot);
    }
    result
}

fn policy_decision(app: &App, d: &Decision) -> Result<Answer, Rejection> {
    let mut rng = decision_rng(d);
    let policy = app.bot.policy();
    let decision_id = d
        .env
        .state
        .doubling
        .as_ref()
        .and_then(|x| x.decision.as_ref())
        .map(|x| serde_json::Value::String(x.id.clone()))
        .or_else(|| d.env.decision_id.clone())
        .unwrap_or(serde_json::Value::Null);
    // The stake-doubling contract's answers may resign (`"resign": true`, with the offer
    // or the take declined): the server's other deliveries have no resignation.
    let resign = app.config.resign.resigns(&d.pos, d.color);
    match d.kind {
        DeliveryType::DrawDecision => answer(&DrawAnswer {
            accept_draw: policy.accept_draw(&d.pos, d.color, &mut rng),
        }),
        DeliveryType::DoubleOpportunity => answer(&DoubleOfferAnswer {
            decision_id,
            offer_double: !resign && policy.offer_double(&d.pos, d.color, &mut rng),
            resign: resign.then_some(true),
        }),
        _ => answer(&DoubleResponseAnswer {
            decision_id,
            accept_double: !resign && policy.accept_double(&d.pos, d.color, &mut rng),
            resign: resign.then_some(true),
        }),
    }
}

/// Leaves the wait queue when dropped.
struct Waiting<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The least time left worth starting a search for. `best` searches a middlegame's 16
/// candidates to depth 2 in about 30 ms on one core (the label bench: 1.8 ms per
/// candidate's chance node); 100 ms leaves three times that for a loaded machine. With
/// less left, the fast path answers.
const MIN_SEARCH: Duration = Duration::from_millis(100);

/// A search is told to stop this long before its answer's deadline, so the watchdog that
/// answers at the deadline finds it finished: `best` honours a deadline within a few ms on
/// a quiet machine, but under load (8 games on 2 cores, `benches/serve_load.rs`) 22 of 367
/// searches overran theirs by over 400 ms before this margin and the watchdog existed.
const SEARCH_MARGIN: Duration = Duration::from_millis(50);

/// Why an admitted turn was answered by the fast path (the log line's `fallback`).
mod degraded {
    /// No search slot came while [`super::MIN_SEARCH`] was still left.
    pub const NO_SLOT: &str = "fast-path:no-search-slot-in-time";
    /// The search had not answered at the deadline.
    pub const OVERRAN: &str = "fast-path:search-overran";
    /// The search panicked or failed.
    pub const FAILED: &str = "fast-path:search-failed";
}

/// A `yourTurn`: admitted (or refused, 503, when the queue is full), then answered by its
/// deadline — `started` plus the think budget (the clocks' share, at most `max_think_ms`) —
/// by the search when a slot comes in time and the search finishes, else by the fast path
/// ([`crate::bots::fast_bounded`]: the bot's pre-ranked pick, a book or forced turn), which
/// starts at admission on its own pool so that it is ready when needed. An empty
/// `legalMoves` tree is answered at once with no moves (the server auto-passes it).
async fn your_turn(
    app: &Arc<App>,
    d: &Decision,
    started: Instant,
    fields: &mut LogFields,
) -> Result<Answer, Rejection> {
    let config = &app.config;
    let state = &d.env.state;
    let think = think_budget_ms(
        state.time_control,
        state.clocks,
        d.color,
        &d.pos,
        config.max_think_ms,
        config.overhead_ms,
    );
    fields.budget_ms = Some(think);
    let think = Duration::from_millis(think);
    let deadline = started + think;
    if state.legal_moves.as_ref().is_some_and(|t| t.0.is_empty()) {
        // The server auto-passes an empty tree; nothing to think about.
        return answer(&TurnAnswer {
            moves: Vec::new(),
            offer_draw: None,
        });
    }
    // Admission: at most `max_queue` waiting; the only refusal an admitted turn can get.
    if app.waiting.fetch_add(1, Ordering::AcqRel) >= config.max_queue {
        app.waiting.fetch_sub(1, Ordering::AcqRel);
        return Err(Rejection::Capacity("the search queue is full"));
    }
    let waiting = Waiting(&app.waiting);
    let fast = fast_path(app, d);
    let last_start = deadline
        .checked_sub(MIN_SEARCH.min(think / 2))
        .unwrap_or(started);
    let acquire = app.searches.clone().acquire_owned();
    // No slot in time, or none ever (the slots close on shutdown): the fast path answers.
    let permit = match tokio::time::timeout_at(last_start.into(), acquire).await {
        Ok(Ok(p)) => Some(p),
        Ok(Err(_)) | Err(_) => None,
    };
    drop(waiting);
    let Some(permit) = permit.filter(|_| Instant::now() < last_start) else {
        return degrade(app, d, fast, degraded::NO_SLOT, None, fields).await;
    };
    let search_deadline = deadline
        .checked_sub(SEARCH_MARGIN.min(think / 4))
        .unwrap_or(started);
    match think_until(app, d, permit, search_deadline, deadline, fields).await {
        Ok(bounded) => settle(app, d, &bounded, fields),
        Err((reason, detail)) => degrade(app, d, fast, reason, detail, fields).await,
    }
}

/// A fast path's turn on its way: its answer, or the panic that stopped it.
type FastTurn = tokio::sync::oneshot::Receiver<std::thread::Result<Result<Bounded, EngineFailure>>>;

/// The fast path's turn, computed on the fast-path pool (never in a search slot nor on an
/// I/O thread): [`fast_bounded`] under [`FAST_ROOT_UNITS`], and when even that proves no
/// path legal, [`quick_fallback`].
fn fast_path(app: &Arc<App>, d: &Decision) -> FastTurn {
    let bot = app.bot.clone();
    let pos = d.pos;
    let mut rng = decision_rng(d);
    let job = move || {
        let mut budget = Budget::new(FAST_ROOT_UNITS);
        match fast_bounded(bot.as_ref(), &pos, &mut rng, &mut budget) {
            Err(BoundedError::NoSurePath { .. }) => quick_fallback(&pos),
            other => other.map_err(EngineFailure::from),
        }
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.fast_pool.spawn(move || {
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)));
    });
    rx
}

/// Answer from the fast path for `reason` (logged, with `detail`); only when the fast path
/// itself fails is the tree's first path answered, and only without a tree is it
/// `strategy_failed`.
async fn degrade(
    app: &App,
    d: &Decision,
    fast: FastTurn,
    reason: &'static str,
    detail: Option<String>,
    fields: &mut LogFields,
) -> Result<Answer, Rejection> {
    fields.fallback = Some(reason);
    fields.detail = detail;
    let failure = match fast.await {
        Ok(Ok(Ok(bounded))) => return settle(app, d, &bounded, fields),
        Ok(Ok(Err(e))) => e.to_string(),
        Ok(Err(_)) | Err(_) => "the fast path panicked".to_owned(),
    };
    match &d.env.state.legal_moves {
        Some(t) => {
            fields.detail = Some(failure);
            answer(&TurnAnswer {
                moves: t.first_path(),
                offer_draw: None,
            })
        }
        None => Err(Rejection::Strategy(failure)),
    }
}

/// Think: the bot's turn under the time left to `search_deadline` and the root budget,
/// searched on the rayon pool (never on an I/O thread) holding `permit` until the search
/// ends; when the budget proves no path legal, [`quick_fallback`]'s turn. A search not
/// finished at `deadline`, a panic or an engine failure is an `Err` with the reason for
/// [`degrade`] (an overrunning search keeps its slot until it ends, so overruns cannot pile
/// up).
async fn think_until(
    app: &Arc<App>,
    d: &Decision,
    permit: OwnedSemaphorePermit,
    search_deadline: Instant,
    deadline: Instant,
    fields: &mut LogFields,
) -> Result<Bounded, (&'static str, Option<String>)> {
    let bot = app.bot.clone();
    let pos = d.pos;
    let mut rng = decision_rng(d);
    let think_time = search_deadline.saturating_duration_since(Instant::now());
    let job = move || {
        let _permit = permit;
        let t0 = Instant::now();
        let mut budget = root_budget(Some(think_time));
        let r = choose_bounded(
            bot.as_ref(),
            &pos,
            &mut Turn {
                rng: &mut rng,
                deadline: Some(search_deadline),
            },
            &mut budget,
        );
        let r = match r {
            Err(BoundedError::NoSurePath { .. }) => quick_fallback(&pos),
            other => other.map_err(EngineFailure::from),
        };
        (r, t0.elapsed())
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.pool.spawn(move || {
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)));
    });
    let (result, elapsed) = match tokio::time::timeout_at(deadline.into(), rx).await {
        Err(_) => return Err((degraded::OVERRAN, None)),
        Ok(Ok(Ok(x))) => x,
        Ok(_) => return Err((degraded::FAILED, Some("the engine panicked".to_owned()))),
    };
    fields.think_ms = Some(elapsed.as_secs_f64() * 1e3);
    result.map_err(|e| (degraded::FAILED, Some(e.to_string())))
}

/// Settle: the answer from the search's result — its path, unless the server sent a
/// `legalMoves` tree that does not hold it (the server's tree is authoritative: then the
/// tree's first path) — and a draw offer when the turn may make one and the bot's policy
/// makes it.
fn settle(
    app: &App,
    d: &Decision,
    bounded: &Bounded,
    fields: &mut LogFields,
) -> Result<Answer, Rejection> {
    let state = &d.env.state;
    if let Bounded::Fallback { .. } = bounded {
        fields.fallback.get_or_insert("root-over-budget");
    }
    let chosen: Vec<String> = bounded
        .choice()
        .path
        .map(|p| p.moves().iter().map(|m| m.uci()).collect())
        .unwrap_or_default();
    let moves = match &state.legal_moves {
        Some(t) if !t.has_path(&chosen) => {
            // The server's tree is authoritative: never answer outside it.
            fields.fallback.get_or_insert("choice-not-in-legalMoves");
            t.first_path()
        }
        _ => chosen,
    };
    let mut rng = decision_rng(d);
    let offer_draw = (state.may_offer_draw == Some(true)
        && app.bot.policy().offer_draw(&d.pos, d.color, &mut rng))
    .then_some(true);
    answer(&TurnAnswer { moves, offer_draw })
}

/// A legal turn at the cost of [`MIN_ROOT_UNITS`] at most: the best material among the
/// paths proven legal (all of them when the walk completes).
fn quick_fallback(pos: &Position) -> Result<Bounded, EngineFailure> {
    let mut budget = Budget::new(MIN_ROOT_UNITS);
    let mut paths = Vec::new();
    let used = match TurnGenerator::new().legal_paths_or_sure_subset(pos, &mut budget, &mut paths) {
        Budgeted::Complete(_, u) | Budgeted::Incomplete(u) => u,
    };
    match fallback_path(pos, &paths) {
        Some(path) => Ok(Bounded::Fallback {
            choice: crate::bots::Choice {
                path: Some(path),
                score: 0.0,
                stats: None,
            },
            units: used,
            sure_paths: paths.len(),
        }),
        None if !budget.is_exhausted() => Ok(Bounded::Fallback {
            choice: crate::bots::Choice {
                path: None,
                score: 0.0,
                stats: None,
            },
            units: used,
            sure_paths: 0,
        }),
        None => Err(EngineFailure::NoFallback(MIN_ROOT_UNITS)),
    }
}
