//! `dicechess replay`: check game records (JSONL) turn by turn against the rules.

use super::CliError;
use dicechess::selfplay::validate_record_line;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

/// Arguments of `replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A games.jsonl file, one game record per line; `-` for standard input.
    file: PathBuf,
    /// Stop at the first invalid game.
    #[arg(long)]
    fail_fast: bool,
}

/// Validate every record; report the first fault of each invalid game; exit status 1 when
/// any game is invalid, 2 when the input cannot be read.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let input: Box<dyn Read> =
        if args.file.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(&args.file).map_err(|e| {
                CliError::Input(format!("cannot read {}: {e}", args.file.display()))
            })?)
        };
    let reader = BufReader::new(input);
    let (mut games, mut turns, mut invalid) = (0u64, 0u64, 0u64);
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| {
            CliError::Input(format!(
                "cannot read {} (line {}): {e}",
                args.file.display(),
                i + 1
            ))
        })?;
        if line.trim().is_empty() {
            continue;
        }
        games += 1;
        match validate_record_line(&line) {
            Ok(s) => turns += s.turns as u64,
            Err(e) => {
                invalid += 1;
                writeln!(out, "{}", e.describe(i + 1))?;
                if args.fail_fast {
                    break;
                }
            }
        }
    }
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
