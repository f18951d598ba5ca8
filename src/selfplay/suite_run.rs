//! Running a scenario suite (docs/suites.md): every scenario decided by the candidate and the
//! baseline once per seed, compared as the JVM arena's `SearchEvaluation` compares them
//! (improvements, regressions, shared matches and misses). Endgame suites are run in
//! suite_endgame_run.rs.

use super::arena::{ArenaBot, ArenaError};
use super::suite::{Expectation, ScenarioSuite};
use super::suite_fields::SUITE_SCHEMA_VERSION;
use crate::bots::Turn;
use crate::rules::legal_paths;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
// `std::time::Instant` natively; the bots' deadline type on wasm32 too (Cargo.toml).
use web_time::Instant;

/// A bot as a suite report names it: its id in the arena, its registry name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SuiteBot {
    /// The arena's id (with any per-side option, `expectimax-model[model=gen2]`).
    pub id: String,
    /// The bot's display name.
    pub name: String,
}

impl SuiteBot {
    /// The identity of `bot` (built once for its name).
    pub fn of(bot: &ArenaBot) -> Result<SuiteBot, ArenaError> {
        Ok(SuiteBot {
            id: bot.id.clone(),
            name: bot.build()?.info().name,
        })
    }
}

/// One bot's decision on one scenario and seed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuiteDecision {
    /// Whether the bot passed.
    pub passed: bool,
    /// The turn's UCI micro-moves (empty for a pass).
    pub moves: Vec<String>,
    /// The bot's score for it on its own scale (`null` for a pass).
    pub score: Option<f64>,
    /// Whether the decision is one of the position's legal turns (a pass: whether there was
    /// none).
    pub legal: bool,
}

/// A decision with whether it met the scenario's expectation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JudgedDecision {
    /// The decision.
    #[serde(flatten)]
    pub decision: SuiteDecision,
    /// Whether it is a legal expected turn (or the expected pass).
    pub matched_expectation: bool,
}

/// How the candidate did against the baseline on one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Comparison {
    /// The candidate met the expectation, the baseline did not.
    CandidateImproved,
    /// The baseline met it, the candidate did not.
    CandidateRegressed,
    /// Both met it.
    BothMatched,
    /// Neither did.
    BothMissed,
}

impl Comparison {
    /// The comparison of two expectation results.
    pub fn of(baseline_matched: bool, candidate_matched: bool) -> Comparison {
        match (baseline_matched, candidate_matched) {
            (false, true) => Comparison::CandidateImproved,
            (true, false) => Comparison::CandidateRegressed,
            (true, true) => Comparison::BothMatched,
            (false, false) => Comparison::BothMissed,
        }
    }

    /// The id in reports (`candidate_improved`, …).
    pub fn id(self) -> &'static str {
        match self {
            Comparison::CandidateImproved => "candidate_improved",
            Comparison::CandidateRegressed => "candidate_regressed",
            Comparison::BothMatched => "both_matched",
            Comparison::BothMissed => "both_missed",
        }
    }
}

/// The expectation as the report writes it (`{"kind":"pass"}` or
/// `{"kind":"turns","allowed":[…]}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ExpectationReport {
    /// An expected pass.
    Pass,
    /// The allowed turns.
    Turns {
        /// Each allowed turn's UCI micro-moves.
        allowed: Vec<Vec<String>>,
    },
}

impl From<&Expectation> for ExpectationReport {
    fn from(e: &Expectation) -> Self {
        match e {
            Expectation::Pass => ExpectationReport::Pass,
            Expectation::Turns(t) => ExpectationReport::Turns { allowed: t.clone() },
        }
    }
}

/// One scenario decided with one seed by both bots.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioResult {
    /// The scenario's id.
    pub scenario_id: String,
    /// Its category id.
    pub category: String,
    /// Its description.
    pub description: String,
    /// Its DFEN.
    pub dfen: String,
    /// The seed.
    pub seed: i64,
    /// What was expected.
    pub expectation: ExpectationReport,
    /// The baseline's decision.
    pub baseline: JudgedDecision,
    /// The candidate's decision.
    pub candidate: JudgedDecision,
    /// How they compare.
    pub comparison: Comparison,
    /// Whether both decided the same (both passed, or the same turn).
    pub same_decision: bool,
}

/// The counts over all runs (scenario × seed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioSummary {
    /// Runs.
    pub runs: usize,
    /// Runs where both bots decided the same.
    pub same_decisions: usize,
    /// Runs where they did not.
    pub different_decisions: usize,
    /// Runs where the baseline met the expectation.
    pub baseline_expectation_hits: usize,
    /// Runs where the candidate met it.
    pub candidate_expectation_hits: usize,
    /// [`Comparison::CandidateImproved`] runs.
    pub candidate_improvements: usize,
    /// [`Comparison::CandidateRegressed`] runs.
    pub candidate_regressions: usize,
    /// [`Comparison::BothMatched`] runs.
    pub both_matched: usize,
    /// [`Comparison::BothMissed`] runs.
    pub both_missed: usize,
    /// The baseline's illegal decisions.
    pub baseline_illegal: usize,
    /// The candidate's illegal decisions.
    pub candidate_illegal: usize,
}

impl ScenarioSummary {
    /// The counts of `results`.
    pub fn of(results: &[ScenarioResult]) -> ScenarioSummary {
        let count = |f: &dyn Fn(&ScenarioResult) -> bool| results.iter().filter(|r| f(r)).count();
        ScenarioSummary {
            runs: results.len(),
            same_decisions: count(&|r| r.same_decision),
            different_decisions: count(&|r| !r.same_decision),
            baseline_expectation_hits: count(&|r| r.baseline.matched_expectation),
            candidate_expectation_hits: count(&|r| r.candidate.matched_expectation),
            candidate_improvements: count(&|r| r.comparison == Comparison::CandidateImproved),
            candidate_regressions: count(&|r| r.comparison == Comparison::CandidateRegressed),
            both_matched: count(&|r| r.comparison == Comparison::BothMatched),
            both_missed: count(&|r| r.comparison == Comparison::BothMissed),
            baseline_illegal: count(&|r| !r.baseline.decision.legal),
            candidate_illegal: count(&|r| !r.candidate.decision.legal),
        }
    }
}

/// The suite's identity in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SuiteIdentity {
    /// The suite file's `schemaVersion`.
    pub schema_version: i64,
    /// Its id.
    pub id: String,
    /// Its description.
    pub description: String,
    /// Its scenarios.
    pub scenario_count: usize,
}

/// The seed set in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeedSetReport {
    /// Its id.
    pub id: String,
    /// The seeds.
    pub values: Vec<i64>,
}

/// A scenario suite's report, in the JVM arena's `search_evaluation` JSON shape (schema 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioReport {
    /// Always `search_evaluation`.
    pub kind: &'static str,
    /// The report's schema version (1).
    pub schema_version: u32,
    /// The suite.
    pub fixture_set: SuiteIdentity,
    /// Its seeds.
    pub seed_set: SeedSetReport,
    /// The baseline bot.
    pub baseline: SuiteBot,
    /// The candidate bot.
    pub candidate: SuiteBot,
    /// The counts.
    pub summary: ScenarioSummary,
    /// One result per scenario and seed, scenario by scenario.
    pub results: Vec<ScenarioResult>,
}

/// The decision `bot` makes on a scenario's position with `seed` (its generator seeded from
/// the seed alone), thinking at most `think`.
fn decide_scenario(
    bot: &ArenaBot,
    pos: &crate::board::Position,
    legal: &[Vec<String>],
    seed: i64,
    think: Option<Duration>,
) -> Result<SuiteDecision, ArenaError> {
    let built = bot.build()?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed as u64);
    let choice = built.choose(
        pos,
        &mut Turn {
            rng: &mut rng,
            deadline: think.map(|d| Instant::now() + d),
        },
    )?;
    Ok(match choice.path {
        None => SuiteDecision {
            passed: true,
            moves: Vec::new(),
            score: None,
            legal: legal.is_empty(),
        },
        Some(p) => {
            let moves: Vec<String> = p.moves().iter().map(|m| m.uci()).collect();
            SuiteDecision {
                legal: legal.contains(&moves),
                passed: false,
                moves,
                score: Some(choice.score),
            }
        }
    })
}

/// The report of two bots' decisions, `baseline[k]` and `candidate[k]` being run `k` in
/// scenario order then seed order (scenario `k / seeds`, seed `k % seeds`).
pub fn compare_decisions(
    suite: &ScenarioSuite,
    baseline_bot: SuiteBot,
    candidate_bot: SuiteBot,
    baseline: Vec<SuiteDecision>,
    candidate: Vec<SuiteDecision>,
) -> ScenarioReport {
    let seeds = &suite.seed_set.values;
    let runs = suite
        .scenarios
        .iter()
        .flat_map(|s| seeds.iter().map(move |&seed| (s, seed)));
    let results: Vec<ScenarioResult> = runs
        .zip(baseline.into_iter().zip(candidate))
        .map(|((s, seed), (b, c))| {
            let bm = s
                .expectation
                .matches((!b.passed).then_some(&b.moves[..]), b.legal);
            let cm = s
                .expectation
                .matches((!c.passed).then_some(&c.moves[..]), c.legal);
            ScenarioResult {
                scenario_id: s.id.clone(),
                category: s.category.id().to_owned(),
                description: s.description.clone(),
                dfen: s.dfen.clone(),
                seed,
                expectation: (&s.expectation).into(),
                same_decision: b.passed == c.passed && b.moves == c.moves,
                comparison: Comparison::of(bm, cm),
                baseline: JudgedDecision {
                    decision: b,
                    matched_expectation: bm,
                },
                candidate: JudgedDecision {
                    decision: c,
                    matched_expectation: cm,
                },
            }
        })
        .collect();
    ScenarioReport {
        kind: "search_evaluation",
        schema_version: 1,
        fixture_set: SuiteIdentity {
            schema_version: SUITE_SCHEMA_VERSION,
            id: suite.id.clone(),
            description: suite.description.clone(),
            scenario_count: suite.scenarios.len(),
        },
        seed_set: SeedSetReport {
            id: suite.seed_set.id.clone(),
            values: seeds.clone(),
        },
        baseline: baseline_bot,
        candidate: candidate_bot,
        summary: ScenarioSummary::of(&results),
        results,
    }
}

/// Decide every scenario with every seed by both bots (in parallel in the current rayon
/// pool; the result does not depend on the thread count), each decision thinking at most
/// `think`. `progress` is told the runs done so far.
pub fn run_scenarios(
    suite: &ScenarioSuite,
    candidate: &ArenaBot,
    baseline: &ArenaBot,
    think: Option<Duration>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ScenarioReport, ArenaError> {
    let (candidate_bot, baseline_bot) = (SuiteBot::of(candidate)?, SuiteBot::of(baseline)?);
    let seeds = &suite.seed_set.values;
    let legal: Vec<Vec<Vec<String>>> = suite
        .scenarios
        .iter()
        .map(|s| {
            legal_paths(&s.position)
                .iter()
                .map(|p| p.moves().iter().map(|m| m.uci()).collect())
                .collect()
        })
        .collect();
    let done = AtomicU64::new(0);
    let runs: Vec<(usize, i64)> = (0..suite.scenarios.len())
        .flat_map(|i| seeds.iter().map(move |&s| (i, s)))
        .collect();
    let pairs: Vec<(SuiteDecision, SuiteDecision)> = runs
        .par_iter()
        .map(|&(i, seed)| {
            let pos = &suite.scenarios[i].position;
            let b = decide_scenario(baseline, pos, &legal[i], seed, think)?;
            let c = decide_scenario(candidate, pos, &legal[i], seed, think)?;
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            Ok((b, c))
        })
        .collect::<Result<_, ArenaError>>()?;
    let (b, c) = pairs.into_iter().unzip();
    Ok(compare_decisions(suite, baseline_bot, candidate_bot, b, c))
}
