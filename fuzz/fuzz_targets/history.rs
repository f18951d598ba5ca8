//! The play server's game history (`GET /games/{id}/history`), read and replayed by
//! `validate_history_json` (`dicechess replay`, docs/rules.md §5).
//!
//! Input layout (every read past the end yields 0):
//!
//! * byte 0 bit 0 set: the rest of the input, read as (lossy) UTF-8, is one history document
//!   handed to `validate_history_json` as is; only "no panic" is checked.
//! * otherwise bytes 1..9 are a seed: a game between two greedy bots (turn cap 24) is played
//!   from the start position with it and written in the server's shape (`White`/`Black`,
//!   `king_captured`…), then mutated: the next byte picks a turn, the next its mutation
//!   (replace the moves with moves built from the following bytes, re-roll the dice,
//!   drop/duplicate/swap moves, replace fenAfter, flip the result, change the colour, change
//!   the termination), then the document is validated.
//!
//! Raw text is also read as `dicechess analyze` reads a file (`game_texts`, then
//! `analysis::Game::from_json` in whichever shape): a game it accepts is one the replay
//! validators accept. A structured history is accepted by `Game::from_json` exactly when the
//! validator accepts it, and its mutated turn is then analysed (depth 1) with error ≥ 0.
//!
//! Checked: never a panic; whenever the validator accepts a history, every turn's moves are,
//! checked independently with `legal_paths`, one of the legal paths of the recorded roll (an
//! empty list only when there is none), the dice are three faces 1..6 and `fenAfter` is the
//! position the path reaches; an unmutated history is always accepted.
#![no_main]

use dicechess::analysis::{AnalysisConfig, Analyzer, Game};
use dicechess::board::{Dice, Position};
use dicechess::bots::{bot_by_id, BotOptions};
use dicechess::rules::legal_paths;
use dicechess::selfplay::{
    game_texts, play_game, validate_history_json, validate_record_line, GameLimits, GameRecord,
    Termination,
};
use libfuzzer_sys::fuzz_target;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Reads bytes; 0 past the end.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
}

fn square(b: u8) -> String {
    let i = b % 64;
    format!("{}{}", (b'a' + i % 8) as char, (b'1' + i / 8) as char)
}

/// The record as the server's history document (written by hand: the fuzz crate does not
/// depend on serde_json; every string here is plain ASCII without quotes).
fn to_history(r: &GameRecord, termination: &str) -> String {
    let quote = |s: &str| format!("\"{s}\"");
    let turns: Vec<String> = r
        .turns
        .iter()
        .map(|t| {
            let dice: Vec<String> = t.dice.iter().map(|d| d.to_string()).collect();
            let moves: Vec<String> = t.moves.iter().map(|m| quote(m)).collect();
            let color = match t.active_color.as_str() {
                "w" => "White",
                "b" => "Black",
                other => other,
            };
            format!(
                "{{\"turnNumber\":{},\"activeColor\":{},\"dice\":[{}],\"moves\":[{}],\"fenAfter\":{}}}",
                t.turn_number,
                quote(color),
                dice.join(","),
                moves.join(","),
                quote(&t.fen_after)
            )
        })
        .collect();
    format!(
        "{{\"gameId\":{},\"players\":{{}},\"rated\":null,\"timeControl\":{{\"Unlimited\":{{}}}},\"result\":{},\"termination\":{},\"finishedAt\":null,\"initialDfen\":{},\"turns\":[{}],\"fairness\":{{\"commit\":\"00\"}}}}",
        quote(&r.game_id),
        r.result,
        quote(termination),
        quote(&r.initial_dfen),
        turns.join(",")
    )
}

/// The server's word for how a record ended (a limit: the server aborts).
fn termination_of(r: &GameRecord) -> &'static str {
    match r.termination {
        Termination::KingCapture => "king_captured",
        Termination::HalfmoveLimit | Termination::TurnLimit => "aborted",
    }
}

/// Independently check every turn of an accepted record.
fn check_accepted(r: &GameRecord) {
    let mut pos = Position::from_dfen(&r.initial_dfen)
        .expect("accepted record has a DFEN")
        .with_dice(Dice::EMPTY);
    for t in &r.turns {
        assert_eq!(t.dice.len(), 3, "accepted dice {:?}", t.dice);
        let dice = Dice::from_faces(&t.dice).expect("accepted dice are faces 1..6");
        let rolled = pos.with_dice(dice);
        let paths = legal_paths(&rolled);
        let given = t.moves.join(",");
        let next = if t.moves.is_empty() {
            assert!(
                paths.is_empty(),
                "accepted a pass with {} paths",
                paths.len()
            );
            rolled.end_turn()
        } else {
            let p = paths.iter().find(|p| p.uci() == given).unwrap_or_else(|| {
                panic!("accepted {given} for dice {:?}: not a legal path", t.dice)
            });
            p.end_position(&rolled)
        };
        let after = Position::from_dfen(&t.fen_after).expect("accepted fenAfter parses");
        assert_eq!(next.to_dfen(), after.to_dfen(), "accepted a wrong fenAfter");
        pos = next;
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes { data, at: 0 };
    let mode = b.next();
    if mode & 1 == 1 {
        let text = String::from_utf8_lossy(&data[1..]);
        let _ = validate_history_json(&text);
        // `dicechess analyze`'s reader: the file's games (JSON lines or one document), each
        // read in whichever shape; a game it accepts is one the validators accept.
        for game in game_texts(&data[1..]).flatten() {
            if Game::from_json(&game.text).is_ok() {
                assert!(
                    validate_history_json(&game.text).is_ok()
                        || validate_record_line(&game.text).is_ok(),
                    "Game::from_json accepted a game both validators refuse"
                );
            }
        }
        return;
    }
    let mut seed = 0u64;
    for _ in 0..8 {
        seed = seed << 8 | u64::from(b.next());
    }
    let greedy = bot_by_id("greedy", &BotOptions::default()).expect("greedy exists");
    let start = Position::from_dfen(START).expect("start DFEN");
    let limits = GameLimits {
        halfmove: 100,
        turns: 24,
    };
    let mut r = play_game(
        &start,
        greedy.as_ref(),
        greedy.as_ref(),
        seed,
        limits,
        format!("fuzz-{seed}"),
        (Default::default(), Default::default()),
    )
    .expect("greedy plays");
    let mut termination = termination_of(&r);
    let original = to_history(&r, termination);
    assert!(
        validate_history_json(&original).is_ok(),
        "a played game is refused: {:?}",
        validate_history_json(&original)
    );
    if r.turns.is_empty() {
        return;
    }
    let i = b.next() as usize % r.turns.len();
    let t = &mut r.turns[i];
    match b.next() % 9 {
        0 => {
            let n = b.next() % 4;
            t.moves = (0..n)
                .map(|_| {
                    let mut m = square(b.next()) + &square(b.next());
                    let promo = b.next();
                    if promo % 8 == 1 {
                        m.push(['q', 'r', 'b', 'n'][(promo / 8 % 4) as usize]);
                    }
                    m
                })
                .collect();
        }
        1 => t.dice = (0..3).map(|_| b.next() % 6 + 1).collect(),
        2 => {
            t.moves.pop();
        }
        3 => {
            if let Some(m) = t.moves.first().cloned() {
                t.moves.push(m);
            }
        }
        4 => t.moves.reverse(),
        5 => t.fen_after = START.to_owned(),
        6 => r.result = -r.result + (b.next() % 2) as i8,
        7 => {
            termination = [
                "king_captured",
                "timeout",
                "resign",
                "draw_agreement",
                "aborted",
            ][(b.next() % 5) as usize]
        }
        _ => {
            t.active_color = if t.active_color == "w" { "b" } else { "w" }.to_owned();
        }
    }
    let doc = to_history(&r, termination);
    let accepted = validate_history_json(&doc).is_ok();
    // The analysis reads the same document the same way.
    let game = Game::from_json(&doc);
    assert_eq!(
        game.is_ok(),
        accepted,
        "analyze and replay disagree: {:?}",
        game.err()
    );
    if accepted {
        check_accepted(&r);
        // Its mutated turn, analysed at depth 1: a legal turn always has an analysis.
        let g = game.expect("accepted");
        let before = if i == 0 {
            start
        } else {
            Position::from_dfen(&g.turns[i - 1].fen_after).expect("accepted fenAfter")
        };
        let t = &g.turns[i];
        let a = analyzer()
            .analyze_turn(&before, &t.dice, &t.moves, (&g.game_id, t.turn_number))
            .expect("an accepted turn is analysed");
        assert!(a.error >= 0.0 && a.best_equity >= a.played_equity);
    }
});

/// The depth-1 analyser of `best`'s leaves, built once.
fn analyzer() -> &'static Analyzer {
    static A: std::sync::OnceLock<Analyzer> = std::sync::OnceLock::new();
    A.get_or_init(|| {
        Analyzer::for_bot(
            "best",
            AnalysisConfig {
                depth: 1,
                time_ms: None,
            },
        )
        .expect("best analyses")
    })
}
