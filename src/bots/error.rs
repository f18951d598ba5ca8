//! Why a bot could not choose a turn ([`BotError`]): its search failed, or a bot played
//! elsewhere (a webhook) did not answer with a legal turn.

use crate::search::SearchError;

/// Why a bot could not choose.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The search (or an evaluator under it) failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A remote bot (a webhook) failed or answered an illegal turn; the source is the
    /// client's own error (`serve::ClientError` for the webhook bot).
    #[error("remote bot: {0}")]
    Remote(Box<dyn std::error::Error + Send + Sync>),
}
