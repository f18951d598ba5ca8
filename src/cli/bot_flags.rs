//! The flags that build one bot (`bestmove`, `equity-lost score`): its model, pre-ranker,
//! collapse net, book, candidate limit, endgame tables and selective depth 3.

use super::CliError;
use dicechess::bots::BotOptions;
use std::path::PathBuf;

/// How to build the bot a command decides with.
#[derive(clap::Args, Debug)]
pub struct BotFlags {
    /// Model package for model leaves (`expectimax-model`).
    #[arg(long)]
    model: Option<PathBuf>,
    /// A `move-prerank` model package ordering expectimax's root candidates.
    #[arg(long)]
    prerank: Option<PathBuf>,
    /// A `chance-collapse` model package replacing expectimax's root chance nodes.
    #[arg(long, value_name = "PKG")]
    collapse: Option<PathBuf>,
    /// Opening book (TSV) played before the bot.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Expectimax candidate limit.
    #[arg(long)]
    candidates: Option<usize>,
    /// Endgame tables (a folder `dicechess tablebase build` wrote) scoring the search's leaves.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    #[command(flatten)]
    depth3: super::depth3::Depth3Args,
}

impl BotFlags {
    /// The bot's options (the tables folder is opened here, so a bad one is named before
    /// any work).
    pub fn options(self) -> Result<BotOptions, CliError> {
        Ok(self.depth3.apply(BotOptions {
            model: self.model,
            prerank: self.prerank,
            collapse: self.collapse,
            book: self.book,
            candidate_limit: self.candidates,
            tablebases: super::tablebase::for_bots(self.tablebases.as_deref())?,
            ..BotOptions::default()
        }))
    }
}
