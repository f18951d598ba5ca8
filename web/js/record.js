// The game as it was played, in the play server's history shape (`GET /games/{id}/history`),
// which `analyzeGame` (and `dicechess analyze`) read: no DOM here, the Node tests use it too.
import { face } from './dice.js';

/** The start position of every game the page plays. */
export const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/**
 * One played turn in the history's terms.
 * @param {number} turnNumber 1-based
 * @param {string} side "w" or "b"
 * @param {string} dice the rolled dice as DFEN letters ("PNB", "pnb")
 * @param {string[]} moves the micro-moves in UCI ([] for a pass)
 * @param {string} fenAfter the DFEN after the turn (turn ended, no dice)
 */
export function historyTurn(turnNumber, side, dice, moves, fenAfter) {
  return {
    turnNumber,
    activeColor: side === 'w' ? 'White' : 'Black',
    dice: [...dice].map(face),
    moves: moves.slice(),
    fenAfter,
  };
}

/**
 * A finished (or abandoned) game as a server history document.
 * @param {object} game
 * @param {string} game.gameId
 * @param {string} [game.initialDfen] the start (default START)
 * @param {{side: string, dice: string, moves: string[], fenAfter: string}[]} game.turns
 * @param {string|null} game.winner "w", "b", or null for a game that did not end
 * @param {string} game.termination "king_captured", "resign" or "aborted"
 * @param {{name: string, kind: string}} game.white
 * @param {{name: string, kind: string}} game.black
 */
export function gameHistory({ gameId, initialDfen = START, turns, winner, termination, white, black }) {
  return {
    gameId,
    players: { white, black },
    rated: false,
    timeControl: null,
    result: winner === 'w' ? 1 : winner === 'b' ? -1 : 0,
    termination,
    finishedAt: new Date().toISOString(),
    initialDfen,
    turns: turns.map((t, i) => historyTurn(i + 1, t.side, t.dice, t.moves, t.fenAfter)),
    fairness: null,
  };
}

/**
 * The same game as a `games.jsonl` record (`dicechess selfplay`'s shape): bots by id, the
 * adjudication limits it was played under; only a game that ended by the rules (a king
 * capture) is one.
 */
export function gameRecord(history, { seed = 0, limits = { halfmove: 100, turns: 300 } } = {}) {
  return {
    gameId: history.gameId,
    initialDfen: history.initialDfen,
    turns: history.turns.map((t) => ({ ...t, activeColor: t.activeColor === 'White' ? 'w' : 'b' })),
    result: history.result,
    termination: 'king-capture',
    white: { id: history.players.white.name },
    black: { id: history.players.black.name },
    seed,
    limits,
  };
}

/** Win probability of `color`'s view in White's: the equity graph's axis. */
export function whiteView(color, p) {
  return color === 'w' ? p : 1 - p;
}

/**
 * The equity graph's points from an analysis: turn 1's equity before its roll, then each
 * turn's played equity, all in White's view.
 */
export function equityCurve(analysis) {
  const t = analysis.turns;
  if (t.length === 0) return [];
  return [whiteView(t[0].activeColor, t[0].equityBefore), ...t.map((x) => whiteView(x.activeColor, x.playedEquity))];
}
