//! The selective depth-3 flags of the commands that build bots (`bestmove`, `serve`, `play`;
//! `arena` has them per side): docs/search.md §4.5a.

use dicechess::bots::BotOptions;

/// `--d3-replies`, `--d3-candidates` and `--d3-widest`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Depth3Args {
    /// Selective depth 3 of the bots that deepen iteratively (`best`, `best-net`,
    /// `expectimax-d3`): the opponent's replies per roll class that get our chance node, the
    /// best for the opponent by the leaf evaluator; 0 searches every reply (the exact depth
    /// 3) [default: 1]
    #[arg(long, value_name = "N")]
    pub d3_replies: Option<usize>,
    /// How many of the depth-2 search's best candidates those bots search at depth 3; 0
    /// turns the selective depth 3 off (wave 2's deepening, as `best-v1`) [default: 8]
    #[arg(long, value_name = "K")]
    pub d3_candidates: Option<usize>,
    /// The most replies per roll class those bots widen their selective depth 3 to under a
    /// clock (doubling from `--d3-replies` while the time left covers the next search); the
    /// `--d3-replies` value turns widening off [default: 8 for `best-net`, 1 (no widening)
    /// for the others]
    #[arg(long, value_name = "N")]
    pub d3_widest: Option<usize>,
}

impl Depth3Args {
    /// `options` with these settings where given.
    pub fn apply(&self, options: BotOptions) -> BotOptions {
        BotOptions {
            d3_replies: self.d3_replies.or(options.d3_replies),
            d3_candidates: self.d3_candidates.or(options.d3_candidates),
            d3_widest: self.d3_widest.or(options.d3_widest),
            ..options
        }
    }

    /// What a report adds to a bot's id for these settings (`d3=1/8`), if any.
    pub fn label(&self) -> Option<String> {
        let show = |v: Option<usize>| v.map_or("-".to_owned(), |v| v.to_string());
        let widest = self.d3_widest.map(|w| format!("/w{w}")).unwrap_or_default();
        (self.d3_replies.is_some() || self.d3_candidates.is_some() || self.d3_widest.is_some())
            .then(|| {
                format!(
                    "d3={}/{}{widest}",
                    show(self.d3_replies),
                    show(self.d3_candidates)
                )
            })
    }
}
