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
  shouldBotOfferDouble,
  shouldBotAcceptDouble,
  shouldBotOfferDraw,
  shouldBotAcceptDraw,
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
  registerOpeningBookBot,
  getBotMove,
  applyMoveFacade,
  endTurnFacade,
  analyzeGame,
  hint,
} = engine;
// The JVM build's `DiceChess` and `EngineFacade` objects (web/build.sh adds them to both builds).
export const { DiceChess, EngineFacade } = engine;
export default engine;
