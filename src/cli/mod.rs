//! Subcommands, one file each; this file holds the argument types and the error contract.

#[cfg(feature = "serve")]
mod allocator;
#[cfg(feature = "files")]
mod analyze;
mod arena;
mod arena_suite;
mod bestmove;
mod bot_flags;
mod bots;
mod depth3;
mod equity;
#[cfg(feature = "files")]
mod equity_compare;
#[cfg(feature = "files")]
mod equity_lost;
#[cfg(feature = "files")]
mod eval;
#[cfg(feature = "files")]
mod eval_progress;
#[cfg(feature = "files")]
mod golden;
#[cfg(feature = "files")]
mod label;
#[cfg(feature = "serve")]
mod listen;
#[cfg(feature = "files")]
mod merge;
mod moves;
mod perft;
#[cfg(feature = "play")]
mod play;
mod playable;
mod probe;
mod replay;
#[cfg(feature = "files")]
mod selfplay;
#[cfg(feature = "serve")]
mod serve;
mod tablebase;
mod turns;
#[cfg(feature = "serve")]
mod web;

use clap::{Parser, Subcommand};
use dicechess::board::{DfenError, Position};
use std::io::Write;

/// Dice Chess engine: exact rules, turn enumeration and analysis.
#[derive(Parser, Debug)]
#[command(name = "dicechess", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print every legal turn path of a rolled position, one per line (UCI, comma-joined).
    Turns(turns::Args),
    /// Print the legal first micro-moves of a rolled position, one per line.
    Moves(moves::Args),
    /// Print the dice still playable after a played prefix of the turn.
    Playable(playable::Args),
    /// Single-die perft: count pseudo-legal micro-moves of one die type to a depth.
    Perft(perft::Args),
    /// Exact probes for both colours as JSON: king/queen capture rolls, threats, attackers,
    /// hanging pieces, mobility, passed pawns, diversity, ADEP classes.
    Probe(probe::Args),
    /// A golden corpus of this engine in the training pipeline's format (its probes, one
    /// feature schema, our engine version), to register our shards with the pipeline.
    #[cfg(feature = "files")]
    Golden(golden::Args),
    /// Endgame tables: build them into a folder, probe a position, verify them against one
    /// step of play (docs/tablebases.md).
    Tablebase(tablebase::Args),
    /// Choose a turn with a bot; JSON with `moves`, `score` and search `stats`.
    Bestmove(bestmove::Args),
    /// Monte-Carlo equity (White / Black / undecided) of a position.
    Equity(equity::Args),
    /// List the bots.
    Bots(bots::Args),
    /// Colour-mirrored bot matches on shared dice seeds, with SPRT; `--gauntlet` for a table
    /// of every bot against one base bot.
    Arena(Box<arena::Args>),
    /// Rate every turn of finished games (ours or the play server's) against the best turn
    /// of its roll and every roll against the average roll: per-turn JSON lines, an HTML
    /// report, per-player summaries; resumable, all cores.
    #[cfg(feature = "files")]
    Analyze(analyze::Args),
    /// The equity-lost benchmark: draw rolled decisions and value them with a deeper
    /// teacher (`build`), or play them with a bot and report the equity it gave away per
    /// decision (`score`); resumable.
    #[cfg(feature = "files")]
    EquityLost(equity_lost::Args),
    /// Check game records (JSONL, `-` for stdin) turn by turn against the rules; exit status
    /// 1 when a game is invalid.
    Replay(replay::Args),
    /// Features and/or scores of many positions (DFEN lines, `-` or Parquet) to Parquet or
    /// NPY; resumable, all cores.
    #[cfg(feature = "files")]
    Eval(eval::Args),
    /// Exact searched labels (a1, a2, p1, p2, per-candidate distributions) of many positions
    /// to Parquet or NPY; resumable, all cores, sliceable for a cluster.
    #[cfg(feature = "files")]
    Label(label::Args),
    /// Self-play games between two bots on all cores, in resumable shards (games JSON lines,
    /// training rows Parquet, manifest with digests).
    #[cfg(feature = "files")]
    Selfplay(selfplay::Args),
    /// Merge self-play output folders (slices of one run), checking digests.
    #[cfg(feature = "files")]
    Merge(merge::Args),
    /// Serve a bot over signed webhooks (plain HTTP; TLS is terminated by the host).
    #[cfg(feature = "serve")]
    Serve(serve::Args),
    /// Play on the play server through its Bot API: account and game streams, challenges by
    /// a policy, resume after a restart (docs/play.md).
    #[cfg(feature = "play")]
    Play(play::Args),
    /// Serve the browser page (`web/`, after `bash web/build.sh`) on a local port.
    #[cfg(feature = "serve")]
    Web(web::Args),
}

/// A failure with its exit status: 2 for bad input (DFEN, moves, arguments), 1 otherwise.
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong (exit status 2).
    Input(String),
    /// Something else failed, e.g. writing the output (exit status 1).
    Other(anyhow::Error),
    /// Standard output was closed by its reader; stop quietly (exit status 0).
    ReaderGone,
}

impl CliError {
    /// The one-line message.
    pub fn message(&self) -> String {
        match self {
            CliError::Input(m) => m.clone(),
            CliError::Other(e) => format!("{e:#}"),
            CliError::ReaderGone => String::new(),
        }
    }

    /// The process exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Other(_) => 1,
            CliError::ReaderGone => 0,
        }
    }
}

impl From<DfenError> for CliError {
    fn from(e: DfenError) -> Self {
        CliError::Input(format!("bad DFEN: {e}"))
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // The reader went away (`dicechess turns … | head`): not a failure.
            return CliError::ReaderGone;
        }
        CliError::Other(anyhow::Error::new(e).context("writing the output"))
    }
}

/// Parse a DFEN that must carry a rolled dice pool (field 7).
fn rolled_position(dfen: &str) -> Result<Position, CliError> {
    Ok(Position::from_rolled_dfen(dfen)?)
}

/// Run one parsed command, writing its result to `out`.
pub fn run(cli: Cli, out: &mut impl Write) -> Result<(), CliError> {
    match cli.command {
        Command::Turns(a) => turns::run(a, out)?,
        Command::Moves(a) => moves::run(a, out)?,
        Command::Playable(a) => playable::run(a, out)?,
        Command::Perft(a) => perft::run(a, out)?,
        Command::Probe(a) => probe::run(a, out)?,
        #[cfg(feature = "files")]
        Command::Golden(a) => golden::run(a, out)?,
        Command::Tablebase(a) => tablebase::run(a, out)?,
        Command::Bestmove(a) => bestmove::run(a, out)?,
        Command::Equity(a) => equity::run(a, out)?,
        Command::Bots(a) => bots::run(a, out)?,
        Command::Arena(a) => arena::run(*a, out)?,
        #[cfg(feature = "files")]
        Command::Analyze(a) => analyze::run(a, out)?,
        #[cfg(feature = "files")]
        Command::EquityLost(a) => equity_lost::run(a, out)?,
        Command::Replay(a) => replay::run(a, out)?,
        #[cfg(feature = "files")]
        Command::Eval(a) => eval::run(a, out)?,
        #[cfg(feature = "files")]
        Command::Label(a) => label::run(a, out)?,
        #[cfg(feature = "files")]
        Command::Selfplay(a) => selfplay::run(a, out)?,
        #[cfg(feature = "files")]
        Command::Merge(a) => merge::run(a, out)?,
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve::run(a, out)?,
        #[cfg(feature = "play")]
        Command::Play(a) => play::run(a, out)?,
        #[cfg(feature = "serve")]
        Command::Web(a) => web::run(a, out)?,
    }
    out.flush()?;
    Ok(())
}
