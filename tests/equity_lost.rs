//! The equity-lost benchmark (docs/analysis.md, "Equity lost against a deeper teacher"):
//! the teacher's shortlist against the analysis's own exact depth-2 ranking, its depth-3
//! values against a roll-by-roll reference, the judging of chosen turns, the summary's
//! arithmetic, runs compared against a common reference, the set file's round trip and
//! refusals, the draw, and the committed set.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use dicechess::analysis::{
    compare, distinct_turn_count, draw_decisions, judge, play_and_judge, summarize_losses,
    AnalysisConfig, Analyzer, BenchDecision, DecisionSet, Judged, Phase, ScoreRun, ScoreRunError,
    SetHeader, Teacher, SET_FORMAT,
};
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotOptions};
use dicechess::rules::{legal_paths, parse_uci_path, ROLLS, ROLL_DENOMINATOR};
use std::collections::HashSet;

/// Cheap endgame decisions of the label bench's sample (`tests/data/sample_endgame.txt`).
fn endgames() -> Vec<Position> {
    common::dfen_list("sample_endgame")
        .iter()
        .map(|d| Position::from_dfen(d).unwrap())
        .filter(|p| distinct_turn_count(p) >= 2 && p.occupied().count() <= 9)
        .take(4)
        .collect()
}

/// The distinct afterstates of `rolled` (a pass when it has no legal turn).
fn afterstates(rolled: &Position) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let paths = legal_paths(rolled);
    if paths.is_empty() {
        out.push(rolled.end_turn());
    }
    for p in &paths {
        let a = p.end_position(rolled);
        if seen.insert(a.key()) {
            out.push(a);
        }
    }
    out
}

/// The depth-3 value of an afterstate, roll by roll: for each opponent roll the reply that
/// leaves us the least, each reply valued by the analysis's depth-1 equity of our next roll.
fn depth3_reference(analyzer: &Analyzer, after: &Position) -> f64 {
    let mut sum = 0.0;
    for r in ROLLS.iter() {
        let rolled = after.with_dice(r.dice());
        let worst = afterstates(&rolled)
            .iter()
            .map(|t| analyzer.equity_before(t).unwrap())
            .fold(f64::INFINITY, f64::min);
        sum += f64::from(r.weight) * worst;
    }
    sum / f64::from(ROLL_DENOMINATOR)
}

#[test]
fn the_teacher_shortlists_the_best_depth_2_turns_and_values_them_one_ply_deeper() {
    let teacher = Teacher::dice_aware();
    let analyzer = Analyzer::for_bot("best", AnalysisConfig::default()).unwrap();
    let positions = endgames();
    assert_eq!(positions.len(), 4);
    for (i, rolled) in positions.iter().enumerate() {
        let d = teacher.decision(i, rolled, 3).unwrap().unwrap();
        assert_eq!(d.index, i);
        assert_eq!(d.phase, Phase::Endgame);
        assert_eq!(d.turns, afterstates(rolled).len());
        assert_eq!(d.teacher.len(), 3.min(d.turns));
        // The analysis ranks every turn exactly at depth 2 on the same leaf: the shortlist
        // is its top, in its order of values.
        let ranked = analyzer.ranked_turns(rolled, None).unwrap();
        for (t, r) in d.teacher.iter().zip(&ranked) {
            assert!((t.depth2 - r.equity()).abs() < 1e-9, "{}", d.dfen);
        }
        for t in &d.teacher {
            // The moves reach the afterstate the line names.
            let path = parse_uci_path(rolled, &t.moves.join(",")).unwrap();
            let reached = legal_paths(rolled)
                .into_iter()
                .find(|p| *p.moves() == *path)
                .expect("a legal turn")
                .end_position(rolled);
            let after = Position::from_dfen(&t.after).unwrap();
            assert_eq!(reached.key(), after.key());
            let reference = depth3_reference(&analyzer, &after);
            assert!(
                (t.depth3 - reference).abs() < 1e-9,
                "{}: depth3 {} against {reference}",
                t.after,
                t.depth3
            );
        }
    }
}

#[test]
fn a_chosen_turn_is_judged_against_the_teachers_best_and_valued_when_off_the_list() {
    let teacher = Teacher::dice_aware();
    let rolled = endgames()[0];
    let d = teacher.decision(0, &rolled, 2).unwrap().unwrap();
    let best = d.teacher.iter().map(|t| t.depth3).fold(0.0, f64::max);
    for t in &d.teacher {
        let after = Position::from_dfen(&t.after).unwrap();
        let j = judge(&d, &after, t.moves.clone(), 1.0, &teacher).unwrap();
        assert!(!j.off_list);
        assert_eq!(j.value, t.depth3);
        assert_eq!(j.best, best);
        assert_eq!(j.loss, best - t.depth3);
        assert_eq!(j.matched, t.depth3 == best);
    }
    let listed: HashSet<u64> = d
        .teacher
        .iter()
        .map(|t| Position::from_dfen(&t.after).unwrap().key())
        .collect();
    let off = afterstates(&rolled)
        .into_iter()
        .find(|a| !listed.contains(&a.key()))
        .expect("more turns than the shortlist");
    let j = judge(&d, &off, vec![], 0.0, &teacher).unwrap();
    assert!(j.off_list);
    assert_eq!(j.value, teacher.depth3(&off).unwrap());
    assert_eq!(j.best, best.max(j.value));
    assert!(j.loss >= 0.0 && j.loss == j.best - j.value);
}

#[test]
fn a_bot_that_takes_the_king_loses_nothing() {
    // White rolled pawn, queen, king and can take the black king (a4xe8).
    let rolled = Position::from_dfen("4k3/8/8/8/Q7/8/4P3/5K2 w - - 0 1 PQK").unwrap();
    let teacher = Teacher::dice_aware();
    let d = teacher.decision(0, &rolled, 2).unwrap().unwrap();
    assert_eq!(d.teacher[0].depth3, 1.0);
    for id in ["best", "greedy"] {
        let bot = bot_by_id(id, &BotOptions::default()).unwrap();
        let j = play_and_judge(bot.as_ref(), &d, None, 0, |a| teacher.depth3(a)).unwrap();
        assert_eq!((j.loss, j.matched, j.value), (0.0, true, 1.0), "{id}");
    }
    // A bot that does not see it gives away what was left to win.
    let random = bot_by_id("random", &BotOptions::default()).unwrap();
    let judged: Vec<Judged> = (0..8)
        .map(|seed| play_and_judge(random.as_ref(), &d, None, seed, |a| teacher.depth3(a)).unwrap())
        .collect();
    assert!(judged.iter().any(|j| j.loss > 0.0));
    for j in &judged {
        assert_eq!(j.best, 1.0);
        assert_eq!(j.loss, 1.0 - j.value);
    }
}

fn judged(index: usize, phase: Phase, loss: f64, think_ms: f64) -> Judged {
    Judged {
        index,
        phase,
        moves: vec![],
        value: 0.5 - loss,
        best: 0.5,
        loss,
        matched: loss == 0.0,
        off_list: false,
        think_ms,
    }
}

#[test]
fn the_summary_is_the_mean_its_interval_and_the_counts() {
    let js = [
        judged(0, Phase::Opening, 0.0, 10.0),
        judged(1, Phase::Middlegame, 0.03, 20.0),
        judged(2, Phase::Middlegame, 0.1, 60.0),
        judged(3, Phase::Endgame, 0.01, 30.0),
    ];
    let s = summarize_losses(&js);
    let mean = (0.0 + 0.03 + 0.1 + 0.01) / 4.0;
    let var = [0.0, 0.03, 0.1, 0.01]
        .iter()
        .map(|l: &f64| (l - mean).powi(2))
        .sum::<f64>()
        / 3.0;
    assert_eq!(s.all.decisions, 4);
    assert!((s.all.milli - 1e3 * mean).abs() < 1e-9);
    assert!((s.all.ci95_milli - 1e3 * 1.96 * (var / 4.0).sqrt()).abs() < 1e-9);
    assert_eq!(s.errors, [2, 1, 1]);
    assert_eq!(s.agreement, 0.25);
    assert_eq!((s.mean_think_ms, s.max_think_ms), (30.0, 60.0));
    let phases: Vec<(Phase, usize)> = s.phases.iter().map(|(p, m)| (*p, m.decisions)).collect();
    assert_eq!(
        phases,
        [
            (Phase::Opening, 1),
            (Phase::Middlegame, 2),
            (Phase::Endgame, 1)
        ]
    );
    assert!((s.phases[1].1.milli - 65.0).abs() < 1e-9);
}

fn small_set() -> DecisionSet {
    let teacher = Teacher::dice_aware();
    let decisions: Vec<BenchDecision> = endgames()
        .iter()
        .take(2)
        .enumerate()
        .map(|(i, p)| teacher.decision(i, p, 2).unwrap().unwrap())
        .collect();
    DecisionSet {
        header: SetHeader {
            format: SET_FORMAT.into(),
            teacher: teacher.id(),
            shortlist: 2,
            source: "test".into(),
            seed: 0,
            decisions: decisions.len(),
            engine_version: dicechess::ENGINE_VERSION.into(),
        },
        decisions,
    }
}

#[test]
fn a_set_reads_back_as_written_and_a_wrong_line_is_named() {
    let set = small_set();
    let text = set.to_text().unwrap();
    assert_eq!(DecisionSet::parse(&text).unwrap(), set);
    let lines: Vec<&str> = text.lines().collect();
    let with = |line: usize, from: &str, to: &str| -> String {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        assert!(l[line].contains(from), "{from}");
        l[line] = l[line].replacen(from, to, 1);
        l.join("\n")
    };
    let d3 = format!("\"depth3\":{}", set.decisions[1].teacher[0].depth3);
    let cases: Vec<(String, &str)> = vec![
        (with(0, SET_FORMAT, "other"), "line 1: format"),
        (
            with(0, "\"decisions\":2", "\"decisions\":3"),
            "counts 3 decisions",
        ),
        (with(1, "\"index\":0", "\"index\":1"), "line 2: index 1"),
        (
            with(2, &d3, "\"depth3\":1.5"),
            "line 3: teacher 0: depth3 1.5",
        ),
        (
            with(2, "\"phase\":\"endgame\"", "\"phase\":\"opening\""),
            "line 3: phase",
        ),
        (with(1, "\"turns\":", "\"turnz\":"), "line 2: unknown field"),
        (String::new(), "empty file"),
    ];
    for (text, expected) in cases {
        let err = DecisionSet::parse(&text).unwrap_err().to_string();
        assert!(err.contains(expected), "{err} lacks {expected}");
    }
    // A rolled position without its dice is no decision.
    let dfen = &set.decisions[0].dfen;
    let undiced = dfen.rsplit_once(' ').unwrap().0;
    let err = DecisionSet::parse(&with(1, dfen, undiced))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("line 2: dfen: the position has no dice"),
        "{err}"
    );
}

#[test]
fn the_draw_is_seeded_and_takes_only_decisions() {
    let mut positions: Vec<Position> = common::dfen_list("sample_endgame")
        .iter()
        .chain(common::dfen_list("sample_middlegame").iter())
        .map(|d| Position::from_dfen(d).unwrap())
        .collect();
    // A forced turn (the king alone, boxed in by the rook) and a position without dice.
    positions.push(Position::from_dfen("7k/8/6K1/8/8/8/8/R7 b - - 0 1 kkk").unwrap());
    positions.push(Position::from_dfen("7k/8/6K1/8/8/8/8/R7 b - - 0 1").unwrap());
    let open: Vec<usize> = (0..positions.len())
        .filter(|&i| !positions[i].dice().is_empty() && distinct_turn_count(&positions[i]) >= 2)
        .collect();
    assert!(open.len() < positions.len());
    let a = draw_decisions(&positions, 20, 7);
    assert_eq!(a, draw_decisions(&positions, 20, 7));
    assert_ne!(a, draw_decisions(&positions, 20, 8));
    assert_eq!(a.len(), 20);
    assert!(a.windows(2).all(|w| w[0] < w[1]));
    assert!(a.iter().all(|i| open.contains(i)));
    assert_eq!(draw_decisions(&positions, 10_000, 7), open);
}

#[test]
fn the_committed_set_is_what_the_teacher_says() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/suites/decisions-v1.jsonl");
    let set = DecisionSet::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let teacher = Teacher::dice_aware();
    assert_eq!(set.header.teacher, teacher.id());
    assert_eq!(set.decisions.len(), 2000);
    for phase in Phase::ALL {
        assert!(set.decisions.iter().filter(|d| d.phase == phase).count() >= 100);
    }
    // Recompute the cheapest few (fewest pieces) from scratch: the same values, bit for bit.
    let mut cheap: Vec<&BenchDecision> = set.decisions.iter().collect();
    cheap.sort_by_key(|d| {
        (
            Position::from_dfen(&d.dfen).unwrap().occupied().count(),
            d.index,
        )
    });
    for d in cheap.into_iter().take(3) {
        let rolled = Position::from_dfen(&d.dfen).unwrap();
        let again = teacher
            .decision(d.index, &rolled, set.header.shortlist)
            .unwrap()
            .unwrap();
        assert_eq!(&again, d);
    }
}

/// A judged decision with the chosen turn `turn`, its value and the run's own best.
fn chose(index: usize, turn: &str, value: f64, best: f64) -> Judged {
    Judged {
        index,
        phase: Phase::Middlegame,
        moves: vec![turn.to_string()],
        value,
        best,
        loss: best - value,
        matched: value >= best,
        off_list: false,
        think_ms: 1.0,
    }
}

fn run_of(bot: &str, decisions: Vec<Judged>) -> ScoreRun {
    ScoreRun {
        set: "set.jsonl".into(),
        set_sha256: Some("ab".into()),
        bot: bot.into(),
        time_ms: Some(200),
        decisions,
    }
}

/// Worked by hand. Decision 1: B found an off-list turn worth 0.7 that A's reference (0.6)
/// does not hold; on its own reference B loses nothing there and A 0.1, and against the
/// common one (0.7) A loses 0.2. Decision 3 only A judged: it is left out.
#[test]
fn runs_are_compared_against_the_best_any_of_them_knows() {
    let a = run_of(
        "a",
        vec![
            chose(0, "e2e4", 0.5, 0.5),
            chose(1, "d2d4", 0.5, 0.6),
            chose(2, "g1f3", 0.4, 0.5),
            chose(3, "a2a3", 0.1, 0.9),
        ],
    );
    let b = run_of(
        "b",
        vec![
            chose(2, "g1f3", 0.4, 0.5),
            chose(1, "c2c4", 0.7, 0.7),
            chose(0, "h2h3", 0.3, 0.5),
        ],
    );
    let c = compare(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(c.decisions, 3);
    // Losses against 0.5, 0.7, 0.5: A 0, 0.2, 0.1; B 0.2, 0, 0.1.
    let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
    assert!(close(c.losses[0].milli, 100.0) && close(c.losses[1].milli, 100.0));
    // Paired: A's value minus B's: 0.2, −0.2, 0: mean 0, sd 0.2.
    let p = c.against_first[1];
    assert_eq!((p.decisions, p.same_turn), (3, 1));
    assert!(close(p.milli, 0.0));
    assert!(close(p.ci95_milli, 1e3 * 1.96 * 0.2 / 3f64.sqrt()));
    // Against its own reference each run reads otherwise (A 0.2/3, B 0.3/3: B would look
    // the worse); the common reference puts them level, as their paired difference says.
    let own = |r: &ScoreRun| summarize_losses(&r.decisions[..3]).all.milli;
    assert!(close(own(&a), 200.0 / 3.0) && close(own(&b), 100.0));
    assert_eq!(c.against_first[0].same_turn, 3);
    assert!(close(c.against_first[0].milli, 0.0));

    // Swapping the runs negates the difference; a run against itself differs by nothing.
    let swapped = compare(&[b.clone(), a.clone()]).unwrap();
    assert!(close(swapped.against_first[1].milli, -p.milli));
    let itself = compare(&[a.clone(), a.clone()]).unwrap();
    assert_eq!(itself.against_first[1].same_turn, 4);
    assert!(close(itself.against_first[1].milli, 0.0));
    assert!(close(
        itself.losses[0].milli,
        summarize_losses(&a.decisions).all.milli
    ));

    // Refusals, each named.
    let mut other = b.clone();
    other.set_sha256 = Some("cd".into());
    assert_eq!(
        compare(&[a.clone(), other]),
        Err(ScoreRunError::SetMismatch {
            first: 0,
            second: 1
        })
    );
    let mut phased = b.clone();
    phased.decisions[0].phase = Phase::Endgame;
    assert!(matches!(
        compare(&[a.clone(), phased]),
        Err(ScoreRunError::PhaseMismatch {
            index: 2,
            run: 1,
            ..
        })
    ));
    let none = run_of("n", vec![chose(9, "e2e4", 0.5, 0.5)]);
    assert_eq!(compare(&[a, none]), Err(ScoreRunError::NothingInCommon));
    assert_eq!(compare(&[]), Err(ScoreRunError::NothingInCommon));
}

#[test]
fn a_score_file_is_read_and_its_contradictions_named() {
    let line = |d: &str| {
        format!(
            r#"{{"set":"s","setSha256":"ab","bot":"best","timeMs":200,"summary":{{}},"decisions":[{d}]}}"#
        )
    };
    let good = r#"{"index":0,"phase":"opening","moves":["e2e4"],"value":0.25,"best":0.5,"loss":0.25,"matched":false,"offList":true,"thinkMs":3.0}"#;
    let run = ScoreRun::parse(&line(good)).unwrap();
    assert_eq!(run.decisions[0].moves, ["e2e4"]);
    assert_eq!(
        (run.time_ms, run.set_sha256.as_deref()),
        (Some(200), Some("ab"))
    );
    let twice = format!("{good},{good}");
    assert_eq!(
        ScoreRun::parse(&line(&twice)),
        Err(ScoreRunError::Duplicate(0))
    );
    for (bad, named) in [
        (good.replace("\"loss\":0.25", "\"loss\":0.3"), "loss 0.3"),
        (good.replace("\"value\":0.25", "\"value\":1.5"), "value 1.5"),
        (good.replace("\"best\":0.5", "\"best\":0.1"), "loss 0.25"),
    ] {
        let e = ScoreRun::parse(&line(&bad)).unwrap_err().to_string();
        assert!(e.starts_with("decision 0: ") && e.contains(named), "{e}");
    }
    let e = ScoreRun::parse(&line(&good.replace("thinkMs", "thinkMS"))).unwrap_err();
    assert!(e.to_string().contains("thinkMS"), "{e}");
    assert!(matches!(
        ScoreRun::parse("[1,2]"),
        Err(ScoreRunError::Json(_))
    ));
}
