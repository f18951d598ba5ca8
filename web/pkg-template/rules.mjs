// `import` of the rules entry (`dicechess-web/rules`) in Node: the CommonJS rules build (it
// loads its .wasm synchronously), re-exported by name. Browsers get ./rules/web/index.js.
import engine from './rules/node/dicechess_web_rules.js';

export const {
  getLegalUciMoves,
  getLegalTurns,
  getLegalTurnTree,
  countLegalTurns,
  applyMove,
  endTurn,
  getPlayableDice,
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
  getBotMove,
  applyMoveFacade,
  endTurnFacade,
} = engine;
// The JVM build's `DiceChess` (its rules entry's) and `EngineFacade` objects (web/build.sh).
export const { DiceChess, EngineFacade } = engine;
export default engine;
