//! The human tables of suite reports (`dicechess arena --suite`), after the JVM arena's
//! `SearchEvaluation.printHuman`.

use super::suite_run::{EndgameRates, EndgameReport, ScenarioReport, SuiteDecision};
use std::fmt::Write;

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('…');
        t
    }
}

fn decision(d: &SuiteDecision) -> String {
    if d.passed {
        "pass".to_owned()
    } else {
        d.moves.join(" ")
    }
}

/// A scenario report as a table: one row per scenario and seed, then the totals and the
/// improvements and regressions.
pub fn format_scenario_report(r: &ScenarioReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Search evaluation: {} vs {}",
        r.candidate.id, r.baseline.id
    );
    let _ = writeln!(
        s,
        "Fixture set: {} ({} scenarios), seed set: {} ({})",
        r.fixture_set.id,
        r.fixture_set.scenario_count,
        r.seed_set.id,
        r.seed_set
            .values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let _ = writeln!(
        s,
        "{:<34} {:<11} {:>6}  {:<20} {:<20} result",
        "scenario", "category", "seed", "baseline", "candidate"
    );
    for x in &r.results {
        let mark = |hit: bool| if hit { "" } else { " ✗" };
        let _ = writeln!(
            s,
            "{:<34} {:<11} {:>6}  {:<20} {:<20} {}",
            clip(&x.scenario_id, 34),
            x.category,
            x.seed,
            clip(
                &format!(
                    "{}{}",
                    decision(&x.baseline.decision),
                    mark(x.baseline.matched_expectation)
                ),
                20
            ),
            clip(
                &format!(
                    "{}{}",
                    decision(&x.candidate.decision),
                    mark(x.candidate.matched_expectation)
                ),
                20
            ),
            x.comparison.id()
        );
    }
    let m = &r.summary;
    let pct = |n: usize| {
        if m.runs == 0 {
            0.0
        } else {
            100.0 * n as f64 / m.runs as f64
        }
    };
    let _ = writeln!(
        s,
        "\nExpectation hits: candidate {}/{} ({:.1}%), baseline {}/{} ({:.1}%)",
        m.candidate_expectation_hits,
        m.runs,
        pct(m.candidate_expectation_hits),
        m.baseline_expectation_hits,
        m.runs,
        pct(m.baseline_expectation_hits)
    );
    let _ = writeln!(
        s,
        "Candidate improvements: {}, regressions: {}, same decisions: {}, different decisions: {}",
        m.candidate_improvements, m.candidate_regressions, m.same_decisions, m.different_decisions
    );
    for (label, kind) in [
        ("improved", super::suite_run::Comparison::CandidateImproved),
        (
            "regressed",
            super::suite_run::Comparison::CandidateRegressed,
        ),
    ] {
        for x in r.results.iter().filter(|x| x.comparison == kind) {
            let _ = writeln!(s, "  {label}: {} (seed {})", x.scenario_id, x.seed);
        }
    }
    if m.baseline_illegal > 0 || m.candidate_illegal > 0 {
        let _ = writeln!(
            s,
            "Illegal decisions: candidate {}, baseline {}",
            m.candidate_illegal, m.baseline_illegal
        );
    }
    s
}

fn rates(s: &mut String, who: &str, id: &str, r: &EndgameRates) {
    let _ = writeln!(
        s,
        "{who:<9} {id:<24} conversion {:>5.1}% ({}/{})   defence {:>5.1}% ({}/{}, {} won)",
        100.0 * r.conversion_rate,
        r.conversions,
        r.attacking_games,
        100.0 * r.defence_rate,
        r.defences,
        r.defending_games,
        r.defending_wins
    );
}

/// An endgame report as a table: one row per endgame and seed (each game's result from the
/// winning side: `W` won, `D` drawn, `L` lost, with its turns), then each bot's rates.
pub fn format_endgame_report(r: &EndgameReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Endgame evaluation: {} vs {}",
        r.candidate.id, r.baseline.id
    );
    let _ = writeln!(
        s,
        "Suite: {} ({} endgames), seed set: {} ({})",
        r.fixture_set.id,
        r.fixture_set.scenario_count,
        r.seed_set.id,
        r.seed_set
            .values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let _ = writeln!(
        s,
        "{:<28} {:<6} {:>6}  {:<22} {:<22}",
        "endgame", "wins", "seed", "candidate attacking", "baseline attacking"
    );
    for x in &r.results {
        let sign = if x.winning_side == "black" { -1 } else { 1 };
        let g = |o: &super::arena::GameOutcome| {
            let l = match o.result * sign {
                1 => "W",
                0 => "D",
                _ => "L",
            };
            format!("{l} {} ({})", o.turns, o.termination)
        };
        let _ = writeln!(
            s,
            "{:<28} {:<6} {:>6}  {:<22} {:<22}",
            clip(&x.endgame_id, 28),
            x.winning_side,
            x.seed,
            clip(&g(&x.candidate_attacking), 22),
            clip(&g(&x.candidate_defending), 22)
        );
    }
    s.push('\n');
    rates(&mut s, "candidate", &r.candidate.id, &r.summary.candidate);
    rates(&mut s, "baseline", &r.baseline.id, &r.summary.baseline);
    s
}
