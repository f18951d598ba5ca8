//! `dicechess replay`: check game records (our JSONL, or the play server's history JSON) turn
//! by turn against the rules.

use super::CliError;
use dicechess::selfplay::{
    validate_history_json, validate_record_line, ReplayError, ReplaySummary,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

/// Arguments of `replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A games.jsonl file (one game record per line), or the play server's game history
    /// JSON (one document, an array, or one per line); `-` for standard input.
    file: PathBuf,
    /// Stop at the first invalid game.
    #[arg(long)]
    fail_fast: bool,
}

/// One game, in whichever shape it came: our record (it has `limits`) or the play server's
/// history (`GET /games/{id}/history`).
fn validate_game(text: &str) -> Result<ReplaySummary, ReplayError> {
    let has_limits = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .is_some_and(|v| v.get("limits").is_some());
    if has_limits {
        validate_record_line(text)
    } else {
        validate_history_json(text)
    }
}

/// The games of a whole-file JSON document: one game object, or an array of them.
fn games_of_document(text: &str) -> Result<Vec<String>, String> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Array(games)) => Ok(games.iter().map(|g| g.to_string()).collect()),
        Ok(game) => Ok(vec![game.to_string()]),
        Err(e) => Err(format!("not JSON lines nor one JSON document: {e}")),
    }
}

/// Validate every game; report the first fault of each invalid one; exit status 1 when any
/// game is invalid, 2 when the input cannot be read. The input is JSON lines (our
/// `games.jsonl`, or one history per line) or one JSON document: a history as the server
/// serves it (pretty-printed or not), or an array of games.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let input: Box<dyn Read> =
        if args.file.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(&args.file).map_err(|e| {
                CliError::Input(format!("cannot read {}: {e}", args.file.display()))
            })?)
        };
    let mut reader = BufReader::new(input);
    let read_error = |line: usize, e: std::io::Error| {
        CliError::Input(format!(
            "cannot read {} (line {line}): {e}",
            args.file.display()
        ))
    };
    let mut t = Tally::default();
    let fail_fast = args.fail_fast;
    let mut line_no = 0;
    let mut line = String::new();
    loop {
        line.clear();
        line_no += 1;
        if reader
            .read_line(&mut line)
            .map_err(|e| read_error(line_no, e))?
            == 0
        {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let one_line_json = serde_json::from_str::<serde_json::Value>(&line).is_ok();
        if !one_line_json && t.games == 0 {
            // Not a line of JSON lines: the whole input is one document.
            let mut rest = std::mem::take(&mut line);
            reader
                .read_to_string(&mut rest)
                .map_err(|e| read_error(line_no, e))?;
            match games_of_document(&rest) {
                Ok(docs) => {
                    for (i, doc) in docs.iter().enumerate() {
                        if !t.check(i + 1, doc, out, fail_fast)? {
                            break;
                        }
                    }
                }
                Err(message) => {
                    t.games += 1;
                    t.invalid += 1;
                    writeln!(out, "line {line_no}: {message}")?;
                }
            }
            break;
        }
        if !t.check(line_no, line.trim_end(), out, fail_fast)? {
            break;
        }
    }
    let Tally {
        games,
        turns,
        invalid,
    } = t;
    writeln!(
        out,
        "{games} games checked, {} valid ({turns} turns), {invalid} invalid",
        games - invalid
    )?;
    if invalid > 0 {
        out.flush()?;
        return Err(CliError::Other(anyhow::anyhow!(
            "{invalid} of {games} games are invalid"
        )));
    }
    Ok(())
}

/// Games checked so far.
#[derive(Default)]
struct Tally {
    games: u64,
    turns: u64,
    invalid: u64,
}

impl Tally {
    /// Check one game (at `place`: its line, or its index in a document); report a fault.
    /// Whether to go on.
    fn check(
        &mut self,
        place: usize,
        text: &str,
        out: &mut impl Write,
        fail_fast: bool,
    ) -> std::io::Result<bool> {
        self.games += 1;
        match validate_game(text) {
            Ok(s) => self.turns += s.turns as u64,
            Err(e) => {
                self.invalid += 1;
                writeln!(out, "{}", e.describe(place))?;
                return Ok(!fail_fast);
            }
        }
        Ok(true)
    }
}
