// `import` of the package in Node: the CommonJS build (it loads its .wasm synchronously),
// re-exported by name. Browsers get ./web/dicechess_web.js instead (call its default export,
// `init`, before anything else).
import engine from './node/dicechess_web.js';

export const {
  getAvailableBots,
  getLegalUciMoves,
  getLegalTurns,
  getLegalTurnTree,
  countLegalTurns,
  getBestMove,
  getAvailableTimePolicies,
  applyMove,
  endTurn,
  getPlayableDice,
  estimateEquity,
  kingCaptureProbability,
  canonicalKey,
  canonicalDfen,
  positionKeys,
  perftSingleDie,
  perft,
  getPieceFromDice,
  getPieceTypeAt,
  generateMoves,
  validateDfen,
  analyzeGame,
  hint,
} = engine;
export default engine;
