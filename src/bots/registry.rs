//! The bot registry: every id a user can pick, built from options.

use super::BotInfo;
use super::{
    Bot, CheckmateAware, Deepening, ExpectimaxBot, Greedy, GreedyTerms, MonteCarloBot, OpeningBook,
    OpeningBookBot, RandomBot, RandomKingCapture,
};
use crate::eval::{BatchEvaluator, DiceAware, DiceAwareWeights, Material, TablebaseLeaves};
use crate::search::{ChanceMode, Expectimax, SearchConfig, TranspositionTable};
use crate::tablebase::Tablebases;
use std::path::PathBuf;
use std::sync::Arc;

/// Every registered id, by difficulty.
pub const BOT_IDS: [&str; 13] = [
    "random",
    "random-king-capture",
    "checkmate-aware",
    "greedy",
    "cautious-greedy",
    "aggressive",
    "monte-carlo",
    "expectimax",
    "expectimax-d3",
    "expectimax-model",
    "best-v1",
    "best",
    "best-net",
];

/// How to build a bot.
#[derive(Clone, Debug, Default)]
pub struct BotOptions {
    /// A model package for model leaves (`expectimax-model`).
    pub model: Option<PathBuf>,
    /// A `move-prerank` model package that orders expectimax's root candidates before the
    /// candidate limit (default: material).
    pub prerank: Option<PathBuf>,
    /// An opening book (TSV) to wrap the bot with.
    pub book: Option<PathBuf>,
    /// A `chance-collapse` model package that replaces each root candidate's chance node
    /// of an expectimax bot by one batched model call (docs/search.md §4.6), with the loss
    /// guard on: a candidate after which the opponent can capture our king keeps its
    /// searched value.
    pub collapse: Option<PathBuf>,
    /// Candidate limit for expectimax (default 8).
    pub candidate_limit: Option<usize>,
    /// Transposition table size for expectimax, MiB (default 64; 0 = none).
    pub table_mb: Option<usize>,
    /// How expectimax expands chance nodes (default [`ChanceMode::Shared`]; the per-roll
    /// modes search the same values and are kept for validation and comparison).
    pub chance: Option<ChanceMode>,
    /// Endgame tables scoring the leaves they hold (docs/tablebases.md), for every
    /// expectimax bot but the frozen `best-v1`; none by default.
    pub tablebases: Option<Arc<Tablebases>>,
    /// The selective depth 3 of the bots that deepen iteratively (`best`, `best-net`,
    /// `expectimax-d3`; docs/search.md §4.5a): the opponent's replies per roll class that
    /// get our chance node, 0 for every reply (the exact depth 3) [default:
    /// [`D3_REPLIES`]].
    pub d3_replies: Option<usize>,
    /// How many of the depth-2 search's best candidates those bots search at depth 3; 0
    /// turns their selective depth 3 off for wave 2's deepening (`best-v1`'s: an exact depth
    /// 3 only when a clock leaves 20 times the depth-2 time) [default: [`D3_CANDIDATES`]].
    pub d3_candidates: Option<usize>,
    /// The most replies per roll class those bots widen their selective depth 3 to under a
    /// clock, doubling from [`BotOptions::d3_replies`] while the time left covers the next
    /// search (`ExpectimaxBot::wider`); their value or less turns widening off [default:
    /// [`BEST_NET_D3_WIDEST`] for `best-net`, [`D3_WIDEST`] for the others].
    pub d3_widest: Option<usize>,
}

/// The opponent's replies per roll class a selective depth 3 searches by default (the best
/// for the opponent by the leaf evaluator; README "Depth 3 that pays").
pub const D3_REPLIES: usize = 1;

/// The most replies per roll class a selective depth 3 widens to under a clock by default:
/// [`D3_REPLIES`], no widening, until a gate says otherwise (`--d3-widest 8` widens 1, 2, 4,
/// 8 while time is left; README "Depth 3 that pays" has its gate).
pub const D3_WIDEST: usize = D3_REPLIES;

/// The most replies per roll class `best-net` widens its selective depth 3 to under a clock
/// when the options do not say: 8 (1, 2, 4, 8 while time is left). Gated against `best-v1`:
/// at `--tc 1+0` SPRT H1 after 321 pairs (seed 66, +33 ± 24 Elo), where unwidened it spent a
/// seventh of `best-v1`'s time and was level on seed 65; at `--move-ms 200` see README
/// "Generations against `best-v1`". `best` keeps [`D3_WIDEST`]: its own widening gate (1000
/// ms, seed 34) was stopped undecided.
pub const BEST_NET_D3_WIDEST: usize = 8;

/// The depth-2 search's best candidates a selective depth 3 searches by default.
pub const D3_CANDIDATES: usize = 8;

/// How many times the depth-2 search's time must be left on the clock for an iterative
/// bot's depth 3 to start: its first candidate then usually finishes, and a depth 3 that
/// resolves the depth-2 choice is played even when later candidates are abandoned.
pub const D3_TIME_RATIO: u32 = 4;

/// How a bot built here goes deeper than its depth-2 search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deepen {
    /// [`Deepening::Clock`] into an exact depth 3 of the same candidates.
    Clock,
    /// [`Deepening::Iterative`] into the selective depth 3 of the options.
    Iterative,
}

/// Why a bot could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BotBuildError {
    /// No such id.
    #[error("unknown bot {id:?}; known: {}", BOT_IDS.join(", "))]
    Unknown {
        /// The id asked for.
        id: String,
    },
    /// Neither a registered id nor a webhook URL (where a served bot may stand, [`BotId`]).
    #[error(
        "unknown bot {id:?}; known: {} (or a webhook URL http://host:port/api/webhook)",
        BOT_IDS.join(", ")
    )]
    UnknownOrUrl {
        /// The text given.
        id: String,
    },
    /// The bot needs a model and none was given.
    #[error("bot {id:?} needs a model package (--model DIR)")]
    NeedsModel {
        /// The id.
        id: String,
    },
    /// The model package was refused.
    #[error("model package: {0}")]
    Model(crate::eval::onnx::ModelError),
    /// The model compiled into the binary (`best-net`'s, [`super::shipped_model`]) could
    /// not be read: a build from a damaged checkout.
    #[error("the embedded model {}: {source}", super::SHIPPED_MODEL_DIR)]
    ShippedModel {
        /// Why.
        source: crate::eval::onnx::NativeModelError,
    },
    /// A `chance-collapse` package given as the leaf model cannot run there (its graph is
    /// not a plain MLP ending in a `Sigmoid`).
    #[error("model package {}: {source}", dir.display())]
    LeafModel {
        /// The package.
        dir: std::path::PathBuf,
        /// Why (boxed: the error enum stays small).
        source: Box<crate::eval::onnx::NativeModelError>,
    },
    /// This build cannot load model packages.
    #[error("model package: {}: this build has no ONNX support (feature `onnx`)", dir.display())]
    NoModelSupport {
        /// The package asked for.
        dir: std::path::PathBuf,
    },
    /// A bot from outside the registry (a served bot, say) could not be set up.
    #[error("webhook bot: {0}")]
    Webhook(Box<dyn std::error::Error + Send + Sync>),
    /// The opening book was refused.
    #[error(transparent)]
    Book(#[from] super::BookError),
    /// The search configuration was refused.
    #[error(transparent)]
    Search(#[from] crate::search::SearchError),
}

fn expectimax(
    id: &str,
    name: &str,
    difficulty: u8,
    depth: u8,
    leaf: Arc<dyn BatchEvaluator>,
    opts: &BotOptions,
) -> Result<Box<dyn Bot>, BotBuildError> {
    let config = SearchConfig {
        depth: 2,
        candidate_limit: opts.candidate_limit.unwrap_or(8),
        chance: opts.chance.unwrap_or_default(),
        ..SearchConfig::default()
    };
    let deepen = if depth == 3 {
        Deepen::Iterative
    } else {
        Deepen::Clock
    };
    expectimax_with(id, name, difficulty, config, leaf, None, deepen, opts)
}

/// A depth-2 expectimax bot deepening to 3 by `deepen` (see `ExpectimaxBot::choose`).
#[allow(clippy::too_many_arguments)]
fn expectimax_with(
    id: &str,
    name: &str,
    difficulty: u8,
    config: SearchConfig,
    leaf: Arc<dyn BatchEvaluator>,
    prerank: Option<Arc<dyn BatchEvaluator>>,
    deepen: Deepen,
    opts: &BotOptions,
) -> Result<Box<dyn Bot>, BotBuildError> {
    let leaf: Arc<dyn BatchEvaluator> = match &opts.tablebases {
        Some(tables) if !tables.is_empty() => Arc::new(TablebaseLeaves::new(leaf, tables.clone())),
        _ => leaf,
    };
    let mut search = Expectimax::new(config, leaf.clone())?;
    // The two searchers share one table (entries carry their depth).
    let deepen = match deepen {
        Deepen::Iterative if opts.d3_candidates == Some(0) => Deepen::Clock,
        other => other,
    };
    let (deeper_config, deepening) = match deepen {
        Deepen::Clock => (SearchConfig { depth: 3, ..config }, Deepening::Clock),
        Deepen::Iterative => (
            SearchConfig {
                depth: 3,
                candidate_limit: opts.d3_candidates.unwrap_or(D3_CANDIDATES),
                reply_limit: opts.d3_replies.unwrap_or(D3_REPLIES),
                chance: ChanceMode::Shared,
                ..config
            },
            Deepening::Iterative {
                ratio: D3_TIME_RATIO,
            },
        ),
    };
    let mut deeper = Some(Expectimax::new(deeper_config, leaf.clone())?);
    let mut wider = Vec::new();
    if deepening != Deepening::Clock && deeper_config.reply_limit > 0 {
        let widest = opts.d3_widest.unwrap_or(D3_WIDEST);
        let mut m = deeper_config.reply_limit * 2;
        while m <= widest {
            let c = SearchConfig {
                reply_limit: m,
                ..deeper_config
            };
            wider.push(Expectimax::new(c, leaf.clone())?);
            m *= 2;
        }
    }
    let prerank = match &opts.prerank {
        Some(dir) => Some(load_prerank(dir)?),
        None => prerank,
    };
    let ranked_by = prerank
        .as_ref()
        .map(|p| format!(", pre-ranked by {}", p.id()))
        .unwrap_or_default();
    if let Some(model) = prerank {
        search = search.with_prerank(model.clone());
        wider = wider
            .into_iter()
            .map(|w| w.with_prerank(model.clone()))
            .collect();
        deeper = deeper.map(|d| d.with_prerank(model));
    }
    let collapsed_by = match &opts.collapse {
        Some(dir) => {
            let model = load_collapse(dir)?;
            let by = format!(", chance nodes collapsed by {}", model.id());
            search = search.with_collapse(model.clone(), true);
            wider = wider
                .into_iter()
                .map(|w| w.with_collapse(model.clone(), true))
                .collect();
            deeper = deeper.map(|d| d.with_collapse(model, true));
            by
        }
        None => String::new(),
    };
    let mb = opts.table_mb.unwrap_or(64);
    if mb > 0 {
        let tt = Arc::new(TranspositionTable::with_megabytes(mb));
        search = search.with_table(tt.clone());
        wider = wider
            .into_iter()
            .map(|w| w.with_table(tt.clone()))
            .collect();
        deeper = deeper.map(|d| d.with_table(tt));
    }
    let depth = match deepening {
        Deepening::Clock => "depth 2 (3 when the clock allows)".to_owned(),
        Deepening::Iterative { .. } => match deeper_config.reply_limit {
            0 => format!(
                "depth 2, then depth 3 over its best {}",
                deeper_config.candidate_limit
            ),
            m => format!(
                "depth 2, then selective depth 3 over its best {} ({m} best repl{} per roll{})",
                deeper_config.candidate_limit,
                if m == 1 { "y" } else { "ies" },
                match wider.last() {
                    Some(w) => format!(", widened to {} under a clock", w.config().reply_limit),
                    None => String::new(),
                }
            ),
        },
    };
    Ok(Box::new(ExpectimaxBot {
        search,
        deeper,
        deepening,
        wider,
        info: BotInfo {
            id: id.into(),
            name: name.into(),
            difficulty,
            description: format!(
                "expectimax {depth} over {} leaves{ranked_by}{collapsed_by}, batched, pruned",
                leaf.id()
            ),
        },
    }))
}

/// Whether `id` (case-insensitive) names a registered bot; `greedy-v2` is the community's
/// name of `cautious-greedy`.
pub fn is_registered(id: &str) -> bool {
    let lower = id.to_ascii_lowercase();
    BOT_IDS.contains(&lower.as_str()) || lower == "greedy-v2"
}

/// A bot as a user names it where a served bot may stand too (the arena's `--white`,
/// `--black`, `--exclude`): a registered id or the URL of a webhook bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotId {
    /// A registered bot, the id as given (case-insensitive, [`is_registered`]).
    Registered(String),
    /// A bot served over the webhook protocol at this `http://` URL.
    Webhook(String),
}

impl BotId {
    /// A registered id, or an `http://` URL (a webhook bot); anything else is
    /// [`BotBuildError::UnknownOrUrl`], naming the known ids.
    pub fn parse(text: &str) -> Result<BotId, BotBuildError> {
        if text.starts_with("http://") {
            Ok(BotId::Webhook(text.to_owned()))
        } else if is_registered(text) {
            Ok(BotId::Registered(text.to_owned()))
        } else {
            Err(BotBuildError::UnknownOrUrl {
                id: text.to_owned(),
            })
        }
    }
}

/// Build the bot `id` (case-insensitive) with `opts`; wrapped with the opening book when
/// one is given.
pub fn bot_by_id(id: &str, opts: &BotOptions) -> Result<Box<dyn Bot>, BotBuildError> {
    let lower = id.to_ascii_lowercase();
    let bot: Box<dyn Bot> = match lower.as_str() {
        "random" => Box::new(RandomBot),
        "random-king-capture" => Box::new(RandomKingCapture),
        "checkmate-aware" => Box::new(CheckmateAware),
        "greedy" => Box::new(Greedy {
            terms: GreedyTerms::Material,
        }),
        "cautious-greedy" | "greedy-v2" => Box::new(Greedy {
            terms: GreedyTerms::Cautious,
        }),
        "aggressive" => Box::new(Greedy {
            terms: GreedyTerms::Aggressive,
        }),
        "monte-carlo" => Box::new(MonteCarloBot::default()),
        "expectimax" => expectimax("expectimax", "Expectimax", 8, 2, Arc::new(Material), opts)?,
        "expectimax-d3" => expectimax(
            "expectimax-d3",
            "Expectimax (depth 3)",
            9,
            3,
            Arc::new(Material),
            opts,
        )?,
        "expectimax-model" => {
            let Some(dir) = &opts.model else {
                return Err(BotBuildError::NeedsModel { id: lower });
            };
            let leaf = load_model(dir)?;
            expectimax("expectimax-model", "Expectimax (model)", 10, 2, leaf, opts)?
        }
        "best-v1" => best_v1(opts)?,
        "best" => best(opts)?,
        "best-net" => best_net(opts)?,
        _ => return Err(BotBuildError::Unknown { id: id.to_owned() }),
    };
    Ok(match &opts.book {
        Some(path) => Box::new(OpeningBookBot::new(OpeningBook::load(path)?, bot)),
        None => bot,
    })
}

/// The candidate limit of `best`: with dice-aware pre-ranking, 16 candidates scored 69.6 %
/// against `aggressive` where 8 scored 68.0 % and 32 scored 67.6 % (400 pairs each,
/// untimed; README "The strongest bot").
pub const BEST_CANDIDATE_LIMIT: usize = 16;

/// `best`: expectimax depth 2 over [`DiceAware`] leaves, its root candidates pre-ranked by
/// [`DiceAware`] too (a `--prerank` package replaces that), then the selective depth 3 of
/// the depth-2 search's best [`D3_CANDIDATES`] ([`Deepening::Iterative`]).
///
/// Why each part (untimed, 400 pairs against `aggressive`, README "The strongest bot"):
/// material leaves 60.0 %; dice-aware leaves 63.1 %; plus dice-aware pre-ranking 68.0 %
/// (material pre-ranking cuts king-safety moves that gain no material before the search
/// sees them); plus 16 candidates 69.6 %. The selective depth 3 against `best-v1` (the same
/// without it) at 200 ms a turn: SPRT H1, +60 ± 36 Elo (README "Depth 3 that pays").
fn best(opts: &BotOptions) -> Result<Box<dyn Bot>, BotBuildError> {
    match &opts.model {
        // A position-value package replaces the leaves; the dice-aware evaluator keeps
        // pre-ranking the root candidates (a `--prerank` package replaces that).
        Some(dir) => {
            let leaf = load_model(dir)?;
            let prerank: Arc<dyn BatchEvaluator> = Arc::new(DiceAware::default());
            expectimax_with(
                "best",
                "Best",
                12,
                best_config(opts),
                leaf,
                Some(prerank),
                Deepen::Iterative,
                opts,
            )
        }
        None => dice_aware_expectimax("best", "Best", 12, Deepen::Iterative, opts),
    }
}

/// `best-net`: `best`'s search (depth 2 over 16 candidates pre-ranked by the dice-aware
/// evaluator, then the selective depth 3) with the learning loop's value net at the leaves: the
/// `dt1-p1` package compiled in ([`super::shipped_model`]), on the native forward pass, so
/// it needs no file and no ONNX Runtime. Untimed it beat `best-v1` by SPRT (H1, +14 ± 11
/// Elo over 1704 pairs, seed 21, before `best` deepened selectively); its timed gates are in
/// README "Generations against `best-v1`". `--model` leaves it as it is: `best --model DIR`
/// tries another package. Under a clock it widens its depth 3 up to
/// [`BEST_NET_D3_WIDEST`] replies unless `--d3-widest` says otherwise.
fn best_net(opts: &BotOptions) -> Result<Box<dyn Bot>, BotBuildError> {
    let opts = &BotOptions {
        d3_widest: opts.d3_widest.or(Some(BEST_NET_D3_WIDEST)),
        ..opts.clone()
    };
    let leaf: Arc<dyn BatchEvaluator> =
        Arc::new(super::shipped_model().map_err(|source| BotBuildError::ShippedModel { source })?);
    let prerank: Arc<dyn BatchEvaluator> = Arc::new(DiceAware::default());
    expectimax_with(
        "best-net",
        "Best (value net dt1-p1)",
        13,
        best_config(opts),
        leaf,
        Some(prerank),
        Deepen::Iterative,
        opts,
    )
}

/// `best`'s depth-2 search settings: [`BEST_CANDIDATE_LIMIT`] candidates unless the
/// options say otherwise.
fn best_config(opts: &BotOptions) -> SearchConfig {
    SearchConfig {
        depth: 2,
        candidate_limit: opts.candidate_limit.unwrap_or(BEST_CANDIDATE_LIMIT),
        chance: opts.chance.unwrap_or_default(),
        ..SearchConfig::default()
    }
}

/// `best-v1`: `best` as wave 2 shipped it, frozen as the yardstick of every later change
/// (the arena gates a new `best` against it): expectimax depth 2 (3 when the clock allows)
/// over dice-aware leaves with the weights spelled out here (W 1500, threat 0.25, hanging
/// 0.3 / 0.15), pre-ranked by the same evaluator, 16 candidates, a 64 MiB table; the
/// depth-3 options do not reach it. Its play is pinned byte for byte by
/// `tests/shard_digests.rs`.
fn best_v1(opts: &BotOptions) -> Result<Box<dyn Bot>, BotBuildError> {
    // Frozen means frozen: endgame tables are a later change, gated against this bot.
    let opts = BotOptions {
        tablebases: None,
        ..opts.clone()
    };
    dice_aware_expectimax("best-v1", "Best (v1, frozen)", 11, Deepen::Clock, &opts)
}

/// The wave-2 searcher under both `best` and `best-v1`, deepening by `deepen` (`best` by
/// its selective depth 3, the frozen yardstick by wave 2's clock rule).
fn dice_aware_expectimax(
    id: &str,
    name: &str,
    difficulty: u8,
    deepen: Deepen,
    opts: &BotOptions,
) -> Result<Box<dyn Bot>, BotBuildError> {
    let eval: Arc<dyn BatchEvaluator> = Arc::new(DiceAware {
        weights: DiceAwareWeights {
            win: 1500.0,
            threat: 0.25,
            their_hanging: 0.3,
            our_hanging: 0.15,
        },
    });
    expectimax_with(
        id,
        name,
        difficulty,
        best_config(opts),
        eval.clone(),
        Some(eval),
        deepen,
        opts,
    )
}

/// A position-value package's leaves: the native forward pass when its graph is a plain
/// MLP with weights inside `model.onnx` (no runtime library, and row-wise at the leaves:
/// README "Leaves per second"), else ONNX Runtime.
///
/// A `chance-collapse` package is taken too when its graph is a plain MLP with a final
/// `Sigmoid`: at a leaf (an after-state) it gives the expectation of the opponent's roll
/// that follows, so the search's last chance node is collapsed into the leaf call
/// (docs/search.md §4.6).
#[cfg(feature = "onnx")]
fn load_model(dir: &std::path::Path) -> Result<Arc<dyn BatchEvaluator>, BotBuildError> {
    use crate::eval::onnx::{NativeModel, NativeModelError};
    let package = match leaf_package(dir)? {
        LeafPackage::Value(p) => p,
        LeafPackage::Collapse(p) => return collapse_leaves(dir, p),
    };
    match NativeModel::from_package(package.clone()) {
        Ok(native) => Ok(Arc::new(native)),
        Err(NativeModelError::Package(e)) => Err(BotBuildError::Model(e)),
        Err(_) => {
            let model = crate::eval::onnx::FeatureModel::from_package(package)
                .map_err(BotBuildError::Model)?;
            Ok(Arc::new(model))
        }
    }
}

#[cfg(feature = "onnx")]
fn load_prerank(dir: &std::path::Path) -> Result<Arc<dyn BatchEvaluator>, BotBuildError> {
    let model = crate::eval::onnx::PrerankModel::load(dir).map_err(BotBuildError::Model)?;
    Ok(Arc::new(model))
}

/// A leaf model package by its role.
enum LeafPackage {
    /// `position-value`.
    Value(crate::eval::onnx::ModelPackage),
    /// `chance-collapse`.
    Collapse(crate::eval::onnx::ModelPackage),
}

/// The package in `dir`, read and checked once for a leaf role (`position-value` or
/// `chance-collapse`; any other is refused naming both).
fn leaf_package(dir: &std::path::Path) -> Result<LeafPackage, BotBuildError> {
    use crate::eval::onnx::{ModelPackage, Role};
    let package = ModelPackage::load_leaf(dir).map_err(BotBuildError::Model)?;
    Ok(match package.manifest().model_role {
        Role::ChanceCollapse => LeafPackage::Collapse(package),
        _ => LeafPackage::Value(package),
    })
}

/// A `chance-collapse` package at the leaves: natively, or refused by name.
fn collapse_leaves(
    dir: &std::path::Path,
    package: crate::eval::onnx::ModelPackage,
) -> Result<Arc<dyn BatchEvaluator>, BotBuildError> {
    match crate::eval::onnx::NativeModel::from_package(package) {
        Ok(native) => Ok(Arc::new(native)),
        Err(crate::eval::onnx::NativeModelError::Package(e)) => Err(BotBuildError::Model(e)),
        Err(source) => Err(BotBuildError::LeafModel {
            dir: dir.to_owned(),
            source: Box::new(source),
        }),
    }
}

/// A `chance-collapse` package at the root seam: natively when its graph is a plain MLP
/// ending in a `Sigmoid` (a probability, read on the score axis), else by ONNX Runtime,
/// its output taken as the score itself.
#[cfg(feature = "onnx")]
fn load_collapse(
    dir: &std::path::Path,
) -> Result<Arc<dyn crate::eval::ChanceCollapse>, BotBuildError> {
    use crate::eval::onnx::{ModelPackage, NativeModel, NativeModelError, Role};
    let package = ModelPackage::load(dir, Role::ChanceCollapse).map_err(BotBuildError::Model)?;
    match NativeModel::from_package(package.clone()) {
        Ok(native) => Ok(Arc::new(native)),
        Err(NativeModelError::Package(e)) => Err(BotBuildError::Model(e)),
        Err(_) => {
            let model = crate::eval::onnx::CollapseModel::from_package(package)
                .map_err(BotBuildError::Model)?;
            Ok(Arc::new(model))
        }
    }
}

/// Without ONNX Runtime only a plain MLP ending in a `Sigmoid` runs (natively).
#[cfg(not(feature = "onnx"))]
fn load_collapse(
    dir: &std::path::Path,
) -> Result<Arc<dyn crate::eval::ChanceCollapse>, BotBuildError> {
    use crate::eval::onnx::{ModelPackage, NativeModel, NativeModelError, Role};
    let package = ModelPackage::load(dir, Role::ChanceCollapse).map_err(BotBuildError::Model)?;
    match NativeModel::from_package(package) {
        Ok(native) => Ok(Arc::new(native)),
        Err(NativeModelError::Package(e)) => Err(BotBuildError::Model(e)),
        Err(_) => Err(BotBuildError::NoModelSupport {
            dir: dir.to_owned(),
        }),
    }
}

#[cfg(not(feature = "onnx"))]
fn load_prerank(dir: &std::path::Path) -> Result<Arc<dyn BatchEvaluator>, BotBuildError> {
    Err(BotBuildError::NoModelSupport {
        dir: dir.to_owned(),
    })
}

/// Without ONNX Runtime a plain-MLP package still runs natively; any other graph is refused
/// by name.
#[cfg(not(feature = "onnx"))]
fn load_model(dir: &std::path::Path) -> Result<Arc<dyn BatchEvaluator>, BotBuildError> {
    use crate::eval::onnx::{NativeModel, NativeModelError};
    let package = match leaf_package(dir)? {
        LeafPackage::Value(p) => p,
        LeafPackage::Collapse(p) => return collapse_leaves(dir, p),
    };
    match NativeModel::from_package(package) {
        Ok(native) => Ok(Arc::new(native)),
        Err(NativeModelError::Package(e)) => Err(BotBuildError::Model(e)),
        Err(_) => Err(BotBuildError::NoModelSupport {
            dir: dir.to_owned(),
        }),
    }
}

/// The registry entries of every bot, by difficulty (bots that need a model are listed with
/// the entry they get once one is given).
pub fn registry() -> Vec<BotInfo> {
    let opts = BotOptions {
        table_mb: Some(0),
        ..BotOptions::default()
    };
    BOT_IDS
        .iter()
        .map(|id| match bot_by_id(id, &opts) {
            Ok(b) => b.info(),
            Err(_) => BotInfo {
                id: (*id).into(),
                name: "Expectimax (model)".into(),
                difficulty: 10,
                description: "expectimax depth 2 over a model package's leaves (needs --model DIR)"
                    .into(),
            },
        })
        .collect()
}
