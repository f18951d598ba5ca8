//! The `dicechess` command line: parses arguments and dispatches to one subcommand.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match cli::run(args, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(cli::CliError::ReaderGone) => ExitCode::SUCCESS,
        Err(e) => {
            drop(out);
            eprintln!("error: {}", e.message());
            ExitCode::from(e.exit_code())
        }
    }
}
