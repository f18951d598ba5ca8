//! The human tables of suite reports (`dicechess arena --suite`), after the JVM arena's
//! `SearchEvaluation.printHuman` and `EndgameSuiteRunner`'s three tables.

use super::suite_endgame_run::EndgameReport;
use super::suite_run::{ScenarioReport, SuiteDecision};
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

/// An endgame report as the JVM runner's three tables: per position (distance
/// `chebyshev/manhattan`, the candidate's wins/draws/losses, its attacker and defender win
/// rates, the match's time), per category, and overall.
pub fn format_endgame_report(r: &EndgameReport) -> String {
    let mut s = String::new();
    let rule = "-".repeat(95);
    let _ = writeln!(
        s,
        "Endgame benchmark: {} vs {}",
        r.candidate_id, r.baseline_id
    );
    let _ = writeln!(
        s,
        "Games/position: {} ({} per colour), seed {}, suite {} ({} positions)",
        2 * r.games_per_color,
        r.games_per_color,
        r.seed,
        r.suite_id,
        r.positions.len()
    );
    let _ = writeln!(
        s,
        "{:<18} | {:<24} | {:>5} | {:>10} | {:>9} | {:>9} | {:>7}",
        "Category", "Position ID", "Dist", "Cand W/D/L", "Atk Win%", "Def Win%", "Time"
    );
    let _ = writeln!(s, "{rule}");
    for p in &r.positions {
        let _ = writeln!(
            s,
            "{:<18} | {:<24} | {:>5} | {:>10} | {:>8.1}% | {:>8.1}% | {:>6.2}s",
            clip(&p.category, 18),
            clip(&p.id, 24),
            format!("{}/{}", p.chebyshev_distance, p.manhattan_distance),
            format!("{}/{}/{}", p.candidate_wins, p.draws, p.baseline_wins),
            p.cand_attacker_win_rate,
            p.cand_defender_win_rate,
            p.duration_ms as f64 / 1000.0
        );
    }
    let _ = writeln!(s, "{rule}");
    let _ = writeln!(s, "\nCategory breakdown:");
    let _ = writeln!(
        s,
        "{:<20} | {:>3} | {:>5} | {:>9} | {:>9} | {:>5} | {:>9} | {:>9}",
        "Category", "Pos", "Games", "Cand Wins", "Base Wins", "Draws", "Cand Atk%", "Cand Def%"
    );
    let _ = writeln!(s, "{rule}");
    for c in &r.categories {
        let _ = writeln!(
            s,
            "{:<20} | {:>3} | {:>5} | {:>9} | {:>9} | {:>5} | {:>8.1}% | {:>8.1}%",
            clip(&c.category, 20),
            c.position_count,
            c.total_games,
            c.candidate_wins,
            c.baseline_wins,
            c.draws,
            c.cand_attacker_win_rate,
            c.cand_defender_win_rate
        );
    }
    let _ = writeln!(s, "{rule}");
    let m = &r.summary;
    let score = if m.total_games > 0 {
        m.total_candidate_wins as f64 / m.total_games as f64 * 100.0
    } else {
        0.0
    };
    let _ = writeln!(s, "\nOverall:");
    let _ = writeln!(s, "Total positions : {}", m.total_positions);
    let _ = writeln!(s, "Total games     : {}", m.total_games);
    let _ = writeln!(
        s,
        "Candidate score : {} wins, {} draws, {} losses ({score:.1}%)",
        m.total_candidate_wins, m.total_draws, m.total_baseline_wins
    );
    let _ = writeln!(
        s,
        "Candidate atk % : {:.1}% ({} / {})",
        m.cand_attacker_win_rate, m.cand_attacker_wins, m.cand_attacker_games
    );
    let _ = writeln!(
        s,
        "Candidate def % : {:.1}% ({} / {})",
        m.cand_defender_win_rate, m.cand_defender_wins, m.cand_defender_games
    );
    let _ = writeln!(s, "Total time      : {:.2}s", m.duration_ms as f64 / 1000.0);
    s
}
