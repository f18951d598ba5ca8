//! # dicechess-web
//!
//! The `dicechess` engine compiled to `wasm32-unknown-unknown` with wasm-bindgen, exposing
//! the community's JS API shape (the JVM build's `DiceChess` object): `getAvailableBots`,
//! `getLegalUciMoves`, `getLegalTurns`, `getBestMove`, `applyMove`, `endTurn`,
//! `getPlayableDice`, `estimateEquity`, `kingCaptureProbability`, `canonicalKey`, plus a few
//! helpers the tests and the page use (`canonicalDfen`, `positionKeys`, `countLegalTurns`,
//! `perftSingleDie`) and the game analysis (`analyzeGame`, `hint`).
//!
//! The JVM build's calls answer as theirs do, never throwing for a bad DFEN (`[]`, `{}`,
//! `null`, `undefined`, `0`, `false` or a neutral object): `getLegalUciMoves`,
//! `getLegalTurnTree`, `generateMoves`, `perft`, `getPieceFromDice`, `getPieceTypeAt`,
//! `applyMove`, `endTurn`, `canonicalKey`, `getBestMove`, `getAvailableTimePolicies`,
//! `estimateEquity`, `registerOpeningBookBot`, the `shouldBot…` draw and doubling decisions
//! and the legacy `EngineFacade` calls (`getBotMove`, `applyMoveFacade`, `endTurnFacade`). `validateDfen` is the strict check: it throws the error described below.
//!
//! Every other function that takes a DFEN throws a JS `Error` whose message is the engine's
//! [`dicechess::board::DfenError`] text (it starts with the field's name) and whose `field`
//! property is that name; bad options throw an `Error` naming the option. Nothing panics on
//! bad input. `web/README.md` documents each function's arguments and result.
//!
//! The `bots` feature (default) adds the bots, equity, analysis and hints. Without it (the
//! package `dicechess-web-rules` in `rules/`, the npm entry `dicechess-web/rules`) the build
//! binds the rules and probe calls only: `getLegalUciMoves`, `getLegalTurns`,
//! `getLegalTurnTree`, `countLegalTurns`, `applyMove`, `endTurn`, `getPlayableDice`,
//! `generateMoves`, `perft`, `perftSingleDie`, `validateDfen`, `getPieceFromDice`,
//! `getPieceTypeAt`, the `EngineFacade` calls, `canonicalKey`, `canonicalDfen`,
//! `positionKeys` and `kingCaptureProbability`.

#![warn(missing_docs)]

#[cfg(feature = "bots")]
mod analysis;
#[cfg(feature = "bots")]
mod bots;
#[cfg(feature = "bots")]
mod equity;
mod js;
mod probes;
mod rules;
