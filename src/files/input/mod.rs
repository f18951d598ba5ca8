//! Streaming position input: DFEN lines (a file or standard input), the `dfen`/`fen` string
//! column of a Parquet file, or a training shard of schema v0 (the pipeline's
//! `dicechess_training_schema` marker and its six base columns), read in chunks of a bounded
//! number of records.
//!
//! A v0 shard's position is its `fen` (four fields padded with `0 1`, as the pipeline's
//! enricher does) with its `dice`, and its base columns travel with the record
//! ([`Chunk::base`]) so that `eval` can write them through: a row whose `side` is not the
//! FEN's side to move, or whose `result` is not 0, 0.5 or 1, is a bad record.
//!
//! The analytics database's training export (`training_data.csv.gz`, `analytics_csv.rs`) is
//! read like a v0 shard: each row's base columns travel with it, converted to the v0 row they
//! describe (`turn_number` as `ply`, dice as upper-case letters, `result` from the mover's
//! view).
//!
//! A *record* is one non-blank, non-comment line (lines whose first non-blank character is `#`
//! are comments) or one Parquet row. Chunk `k` holds records `k·N … k·N + N − 1` whatever they
//! contain, so chunk boundaries depend only on the input and the chunk size: a resumed run
//! finds the same chunks again ([`PositionReader::skip_chunk`]).
//!
//! Bad records do not stop the reader: each becomes an [`InputError::Bad`] in
//! [`Chunk::bad`] carrying its 1-based line (or row) number and the reason; the caller decides
//! whether to stop or skip.
//!
//! One reader per input kind ([`PositionReader`] picks it): DFEN lines (`lines.rs`), a Parquet
//! `dfen`/`fen` column (`dfen_column.rs`) and a v0 training shard (`v0_shard.rs`), the last two
//! over the same Parquet batches (`parquet_rows.rs`); each yields raw records (`record.rs`)
//! that a chunk parses (`chunk.rs`).

mod analytics_csv;
mod chunk;
mod dfen_column;
mod error;
mod lines;
mod parquet_rows;
mod reader;
mod record;
mod v0_shard;

pub use chunk::{Chunk, RawChunk};
pub use error::InputError;
pub use lines::parse_input_line;
pub use reader::PositionReader;
pub use record::Location;
