//! The bots that need no files and no ONNX Runtime: the registry and one decision.

use crate::js::{field_error, to_js, Options, MAX_SAFE_INTEGER};
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, registry, Bot, BotOptions, OpeningBook, OpeningBookBot, Turn};
use dicechess::bots::{choose_bounded, root_budget, Bounded};
use dicechess::rules::MoveKind;
use dicechess::search::{budget_ms, ClockState, TimePolicy};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use std::cell::RefCell;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use web_time::Instant;

/// The bot `getBestMove` plays when `algorithm` is not given (the JVM API's default).
pub const DEFAULT_ALGORITHM: &str = "greedy";

/// One registry entry in the JVM API's shape.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BotEntry {
    id: String,
    name: String,
    description: String,
    difficulty: u8,
    is_experimental: bool,
}

/// The bots this build can play (the registry less those that need a model package, then
/// the bots `registerOpeningBookBot` added), by difficulty:
/// `[{id, name, description, difficulty, isExperimental}]`.
#[wasm_bindgen(js_name = getAvailableBots)]
pub fn get_available_bots() -> Result<JsValue, JsValue> {
    let opts = BotOptions {
        table_mb: Some(0),
        ..BotOptions::default()
    };
    let bots: Vec<BotEntry> = registry()
        .into_iter()
        .filter(|b| bot_by_id(&b.id, &opts).is_ok())
        .map(|b| BotEntry {
            id: b.id,
            name: b.name,
            description: b.description,
            difficulty: b.difficulty,
            is_experimental: false,
        })
        .collect();
    let mut bots = bots;
    CUSTOM.with(|c| {
        bots.extend(c.borrow().iter().map(|b| BotEntry {
            id: b.id.clone(),
            name: b.name.clone(),
            description: format!("Opening-book bot decorating '{}'.", b.base_id),
            difficulty: b.difficulty,
            is_experimental: true,
        }))
    });
    // By difficulty, the registered bots among the built-in ones, as the JVM build's
    // `BotRegistry.availableBots` lists them (stable: the registry's order, then registration
    // order, within a difficulty).
    bots.sort_by_key(|b| b.difficulty);
    to_js(&bots)
}

/// A bot `registerOpeningBookBot` added: books over a built-in bot.
struct CustomBot {
    /// The id as registered (looked up in lower case).
    id: String,
    /// The display name.
    name: String,
    /// The base id as the caller named it.
    base_id: String,
    /// The built-in bot at the bottom of the chain (a custom base is resolved when
    /// registered, as the JVM build captures its base bot then).
    builtin: String,
    /// The books, the outermost first.
    books: Vec<OpeningBook>,
    /// The base bot's difficulty.
    difficulty: u8,
}

thread_local! {
    /// The bots registered at run time, in registration order.
    static CUSTOM: RefCell<Vec<CustomBot>> = const { RefCell::new(Vec::new()) };
}

/// A bot resolved from an id: the bot, the id to report, and the built-in id that says
/// whether it thinks under a deadline.
struct Resolved {
    bot: Box<dyn Bot>,
    id: String,
    builtin: String,
}

/// The bot of an id (any case): a registered book bot or a built-in one; `None` for an
/// unknown id or one this build cannot play.
fn resolve(id: &str) -> Option<Resolved> {
    let id = id.to_ascii_lowercase();
    let custom = CUSTOM.with(|c| {
        c.borrow()
            .iter()
            .find(|b| b.id.to_ascii_lowercase() == id)
            .map(|b| (b.id.clone(), b.builtin.clone(), b.books.clone()))
    });
    match custom {
        Some((name, builtin, books)) => {
            let mut bot = bot_by_id(&builtin, &BotOptions::default()).ok()?;
            for book in books.into_iter().rev() {
                bot = Box::new(OpeningBookBot::new(book, bot));
            }
            Some(Resolved {
                bot,
                id: name,
                builtin,
            })
        }
        None => {
            let bot = bot_by_id(&id, &BotOptions::default()).ok()?;
            Some(Resolved {
                bot,
                id: id.clone(),
                builtin: id,
            })
        }
    }
}

/// Register a bot that plays an opening book's turn when the position is booked and asks
/// `baseBotId` (a built-in or registered bot, any case) otherwise, under `newBotId` for
/// `getBestMove`, the `shouldBot…` calls and `getAvailableBots` (the JVM build's
/// `registerOpeningBookBot`; registering an id again replaces it). `tsvString`: one
/// `key<TAB>moves` line per position, the key the normalised FEN and the alphabetical dice
/// (`positionKeys(dfen).normalizedFen + " " + positionKeys(dfen).diceKey`), the moves
/// comma-separated UCI in any order. Returns `true` once registered, `false` (nothing
/// changed) for an unknown base bot, a malformed book or a missing argument.
#[wasm_bindgen(js_name = registerOpeningBookBot)]
pub fn register_opening_book_bot(
    tsv_string: Option<String>,
    base_bot_id: Option<String>,
    new_bot_id: Option<String>,
    new_bot_name: Option<String>,
) -> bool {
    let (Some(tsv), Some(base), Some(id), Some(name)) =
        (tsv_string, base_bot_id, new_bot_id, new_bot_name)
    else {
        return false;
    };
    let (Some(base_bot), Ok(book)) = (resolve(&base), OpeningBook::parse(&tsv)) else {
        return false;
    };
    let (builtin, mut books, difficulty) =
        CUSTOM.with(
            |c| match c.borrow().iter().find(|b| b.id.eq_ignore_ascii_case(&base)) {
                Some(b) => (b.builtin.clone(), b.books.clone(), b.difficulty),
                None => (
                    base_bot.builtin.clone(),
                    Vec::new(),
                    base_bot.bot.info().difficulty,
                ),
            },
        );
    books.insert(0, book);
    CUSTOM.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|b| !b.id.eq_ignore_ascii_case(&id));
        c.push(CustomBot {
            id,
            name,
            base_id: base,
            builtin,
            books,
            difficulty,
        });
    });
    true
}

/// One micro-move of a decision.
#[derive(Serialize)]
struct Move {
    from: String,
    to: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    promotion: Option<String>,
}

/// A decision in the JVM API's shape (`moves`, `score`, `timeTakenMs`, `budgetMs`), plus the
/// bot's id and whether the root budget's fallback answered (as `dicechess bestmove`
/// reports it).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BestMove {
    moves: Vec<Move>,
    score: f64,
    time_taken_ms: f64,
    budget_ms: f64,
    algorithm: String,
    fallback: bool,
}

/// The JVM build's time-management policies, by id, in its presentation order (its
/// `TimePolicies.available`); the first is the default.
const TIME_POLICIES: [(&str, TimePolicy); 2] = [
    ("empirical-v1", TimePolicy::EmpiricalV1),
    ("legacy-linear-v1", TimePolicy::LegacyLinearV1),
];

/// The JVM build's Web Worker allowance (its `WorkerOverheadBufferMs`), ms, taken off a
/// clock's budget: a worker round trip and one uninterruptible step of the search.
const WORKER_OVERHEAD_MS: u64 = 150;

/// The bots that think under a deadline (the JVM build's `TimeBudgetedSearch`: Monte-Carlo
/// and the expectimax searchers); the others ignore `clock` and `timeBudgetMs`.
const TIMED_BOTS: [&str; 6] = [
    "monte-carlo",
    "expectimax",
    "expectimax-d3",
    "best-v1",
    "best",
    "best-net",
];

/// The stable ids of the time-management policies `getBestMove`'s `timePolicy` takes, as
/// the JVM build's `getAvailableTimePolicies`: `["empirical-v1", "legacy-linear-v1"]`
/// (the first, calibrated on production games, is the default).
#[wasm_bindgen(js_name = getAvailableTimePolicies)]
pub fn get_available_time_policies() -> Vec<String> {
    TIME_POLICIES
        .iter()
        .map(|(id, _)| (*id).to_owned())
        .collect()
}

/// A property of a JS object, `undefined` for a non-object.
fn property(object: &JsValue, name: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(object, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// A finite number property (the JVM build's `numField`), else `None`.
fn finite(object: &JsValue, name: &str) -> Option<f64> {
    property(object, name).as_f64().filter(|x| x.is_finite())
}

/// The JVM build's `clock` option: `None` unless it is an object with a finite
/// `remainingMs`; `incrementMs` defaults to 0, `moveNumber` to the DFEN's full-move number,
/// `movesToGo` to the policy's estimate; numbers are truncated to integers as its `toLong`
/// and `toInt` do, negative times count as 0.
fn clock_option(options: &JsValue, fullmove: u32) -> Option<ClockState> {
    let clock = property(options, "clock");
    let remaining = finite(&clock, "remainingMs")?;
    Some(ClockState {
        remaining_ms: remaining.max(0.0) as u64,
        increment_ms: finite(&clock, "incrementMs").map_or(0, |x| x.max(0.0) as u64),
        move_number: finite(&clock, "moveNumber").map_or(fullmove, |x| x.max(0.0) as u32),
        moves_to_go: finite(&clock, "movesToGo").map(f64::trunc),
    })
}

/// The think time, ms, for `bot` (0: no deadline), as the JVM build's `getBestMove` works it
/// out: for a bot that thinks under a deadline, a valid `clock` with the `timePolicy` named
/// (case-insensitive; absent or unknown: the default) less the worker allowance, else a
/// positive `timeBudgetMs`; 0 for the other bots.
fn think_ms(bot: &str, options: &JsValue, fullmove: u32) -> u64 {
    if !TIMED_BOTS.contains(&bot) {
        return 0;
    }
    if let Some(clock) = clock_option(options, fullmove) {
        let named = property(options, "timePolicy").as_string();
        let policy = TIME_POLICIES
            .iter()
            .find(|(id, _)| named.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(id)))
            .map_or(TIME_POLICIES[0].1, |(_, p)| *p);
        return budget_ms(&clock, policy, WORKER_OVERHEAD_MS);
    }
    property(options, "timeBudgetMs")
        .as_f64()
        .filter(|x| *x >= 1.0)
        .map_or(0, |x| x.min(i32::MAX as f64) as u64)
}

/// Choose a turn for the rolled DFEN with a bot (`dicechess bestmove`, on the calling
/// thread: run it in a Web Worker in a page), with the JVM build's options and answers.
/// Options (anything else in the object, or a non-object, is ignored): `algorithm` (a bot
/// id from `getAvailableBots`, any case; absent or unknown: `"greedy"`), `clock`
/// (`{remainingMs, incrementMs?, moveNumber?, movesToGo?}`, the live clock, turned into the
/// think time by `timePolicy`, one of `getAvailableTimePolicies()`), `timeBudgetMs` (a
/// think time used when there is no valid `clock`), `seed` (ours: tie-breaks and sampling,
/// a non-negative integer, default 0). Only the bots that think under a deadline use a think
/// time (see [`TIMED_BOTS`]); without one there is no deadline.
///
/// Returns `{moves: [{from, to, promotion?}], score, timeTakenMs, budgetMs, algorithm,
/// fallback}`: `budgetMs` the think time used (0: none), `algorithm` the bot that played.
/// `moves` is empty for a forced pass and for a DFEN without dice; a DFEN that does not
/// parse gets `{moves: [], score: 0, timeTakenMs: 0, budgetMs: 0, …}`, as the JVM build
/// answers (`validateDfen` says why).
#[wasm_bindgen(js_name = getBestMove)]
pub fn get_best_move(dfen: Option<String>, options: JsValue) -> Result<JsValue, JsValue> {
    let o = if options.is_object() && !js_sys::Array::is_array(&options) {
        Options::new(&options)?
    } else {
        Options::new(&JsValue::UNDEFINED)?
    };
    let seed = o.integer("seed", MAX_SAFE_INTEGER)?.unwrap_or(0);
    let Resolved { bot, id, builtin } = bot_of(&options)?;
    let empty = |budget_ms: u64, time_taken_ms: f64| BestMove {
        moves: Vec::new(),
        score: 0.0,
        time_taken_ms,
        budget_ms: budget_ms as f64,
        algorithm: id.clone(),
        fallback: false,
    };
    let Some(pos) = dfen.and_then(|d| Position::from_dfen(&d).ok()) else {
        return to_js(&empty(0, 0.0));
    };
    let start = Instant::now();
    let budget_ms = think_ms(&builtin, &options, pos.fullmove());
    if pos.dice().is_empty() {
        return to_js(&empty(budget_ms, start.elapsed().as_secs_f64() * 1e3));
    }
    let think = (budget_ms > 0).then(|| Duration::from_millis(budget_ms));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut budget = root_budget(think);
    let bounded = choose_bounded(
        bot.as_ref(),
        &pos,
        &mut Turn {
            rng: &mut rng,
            deadline: think.map(|t| start + t),
        },
        &mut budget,
    )
    .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
    let fallback = matches!(bounded, Bounded::Fallback { .. });
    let choice = bounded.choice();
    let moves = choice
        .path
        .map(|p| {
            p.moves()
                .iter()
                .map(|m| Move {
                    from: m.from.to_string(),
                    to: m.to.to_string(),
                    promotion: match m.kind {
                        MoveKind::Promotion(p) => Some(p.letter().to_string()),
                        _ => None,
                    },
                })
                .collect()
        })
        .unwrap_or_default();
    to_js(&BestMove {
        moves,
        score: choice.score,
        time_taken_ms: start.elapsed().as_secs_f64() * 1e3,
        budget_ms: budget_ms as f64,
        algorithm: id,
        fallback,
    })
}

/// The bot of the JVM build's `options.algorithm` (any case, built-in or registered;
/// absent, unknown or needing a model: `"greedy"`, its `BotRegistry.defaultAlgorithm`).
fn bot_of(options: &JsValue) -> Result<Resolved, JsValue> {
    property(options, "algorithm")
        .as_string()
        .and_then(|id| resolve(&id))
        .or_else(|| resolve(DEFAULT_ALGORITHM))
        .ok_or_else(|| field_error("algorithm", "algorithm: the default bot is missing"))
}

/// Which of a bot's draw and doubling decisions to take.
#[derive(Clone, Copy)]
enum Decision {
    OfferDouble,
    AcceptDouble,
    OfferDraw,
    AcceptDraw,
}

/// One draw or doubling decision of the `options.algorithm` bot for the DFEN's side to move,
/// as the JVM build's `shouldBot…` calls ask it: `false` for a DFEN that does not parse.
/// The coin flips of the `random` bot use `options.seed` (ours) when it is a non-negative
/// integer, else a fresh seed as the JVM build's fresh `Random`.
fn decide(dfen: Option<String>, options: &JsValue, what: Decision) -> Result<bool, JsValue> {
    let bot = bot_of(options)?.bot;
    let Some(pos) = dfen.and_then(|d| Position::from_dfen(&d).ok()) else {
        return Ok(false);
    };
    let seed = property(options, "seed")
        .as_f64()
        .filter(|s| s.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER as f64).contains(s))
        .map_or_else(
            || (js_sys::Math::random() * MAX_SAFE_INTEGER as f64) as u64,
            |s| s as u64,
        );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (policy, color) = (bot.policy(), pos.side_to_move());
    Ok(match what {
        Decision::OfferDouble => policy.offer_double(&pos, color, &mut rng),
        Decision::AcceptDouble => policy.accept_double(&pos, color, &mut rng),
        Decision::OfferDraw => policy.offer_draw(&pos, color, &mut rng),
        Decision::AcceptDraw => policy.accept_draw(&pos, color, &mut rng),
    })
}

/// Whether the `options.algorithm` bot (default `"greedy"`) would offer a double before its
/// roll, as the side to move of the DFEN (the JVM build's `shouldBotOfferDouble`; the stake
/// does not change the answer, as in theirs). `false` for a DFEN that does not parse.
#[wasm_bindgen(js_name = shouldBotOfferDouble)]
pub fn should_bot_offer_double(
    dfen: Option<String>,
    current_stake: JsValue,
    options: JsValue,
) -> Result<bool, JsValue> {
    let _ = current_stake;
    decide(dfen, &options, Decision::OfferDouble)
}

/// Whether the `options.algorithm` bot (default `"greedy"`) would take a double, judged for
/// the DFEN's side to move, as the JVM build's `shouldBotAcceptDouble` judges it (pass a
/// DFEN with the responder to move). `false` for a DFEN that does not parse.
#[wasm_bindgen(js_name = shouldBotAcceptDouble)]
pub fn should_bot_accept_double(
    dfen: Option<String>,
    current_stake: JsValue,
    options: JsValue,
) -> Result<bool, JsValue> {
    let _ = current_stake;
    decide(dfen, &options, Decision::AcceptDouble)
}

/// Whether the `options.algorithm` bot (default `"greedy"`) would offer a draw as the DFEN's
/// side to move (the JVM build's `shouldBotOfferDraw`). `false` for a DFEN that does not
/// parse.
#[wasm_bindgen(js_name = shouldBotOfferDraw)]
pub fn should_bot_offer_draw(dfen: Option<String>, options: JsValue) -> Result<bool, JsValue> {
    decide(dfen, &options, Decision::OfferDraw)
}

/// Whether the `options.algorithm` bot (default `"greedy"`) would accept a draw offered to
/// the DFEN's side to move (the JVM build's `shouldBotAcceptDraw`). `false` for a DFEN that
/// does not parse.
#[wasm_bindgen(js_name = shouldBotAcceptDraw)]
pub fn should_bot_accept_draw(dfen: Option<String>, options: JsValue) -> Result<bool, JsValue> {
    decide(dfen, &options, Decision::AcceptDraw)
}
