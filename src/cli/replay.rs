//! `dicechess replay`: check game records (our JSONL, or the play server's history JSON) turn
//! by turn against the rules.

use super::CliError;
use dicechess::selfplay::{
    game_texts, validate_history_json, validate_record, validate_record_line, GameTextError,
    ReplayError, ReplaySummary,
};
use std::io::{BufReader, Read, Write};
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
/// history (`GET /games/{id}/history`). The text is parsed once.
fn validate_game(text: &str) -> Result<ReplaySummary, ReplayError> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) if v.get("limits").is_some() => match serde_json::from_value(v) {
            Ok(record) => validate_record(&record),
            Err(_) => validate_record_line(text),
        },
        _ => validate_history_json(text),
    }
}

/// Validate every game; report the first fault of each invalid one; exit status 1 when any
/// game is invalid, 2 when the input cannot be read. The input is JSON lines (our
/// `games.jsonl`, or one history per line) or one JSON document: a history as the server
/// serves it (pretty-printed or not), or an array of games (`selfplay::game_texts`).
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let input: Box<dyn Read> =
        if args.file.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(&args.file).map_err(|e| {
                CliError::Input(format!("cannot read {}: {e}", args.file.display()))
            })?)
        };
    let mut t = Tally::default();
    for game in game_texts(BufReader::new(input)) {
        match game {
            Ok(g) => {
                if !t.check(g.place, &g.text, out, args.fail_fast)? {
                    break;
                }
            }
            Err(e @ GameTextError::Read { .. }) => {
                return Err(CliError::Input(format!(
                    "cannot read {}: {e}",
                    args.file.display()
                )))
            }
            Err(e) => {
                t.games += 1;
                t.invalid += 1;
                writeln!(out, "{e}")?;
            }
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
