// A real game for the analysis tests: two bots of the package play it from the start with
// the page's seeded dice (web/js/dice.js) until a king is captured, and it is written in the
// page's history shape (web/js/record.js), which analyzeGame and `dicechess analyze` read.
import { engine } from './load.mjs';
import { generator, roll } from '../js/dice.js';
import { sideToMove, withDice, winner } from '../js/position.js';
import { START, gameHistory } from '../js/record.js';

/** A finished game between `white` and `black` (bot ids) on the dice of `seed`. */
export function botGame(seed, white, black, maxTurns = 300) {
  const random = generator(seed);
  const turns = [];
  let dfen = START;
  let won = null;
  while (!won && turns.length < maxTurns) {
    const side = sideToMove(dfen);
    const dice = roll(random, side);
    let d = withDice(dfen, dice);
    const r = engine.getBestMove(d, { algorithm: side === 'w' ? white : black, seed: turns.length + 1 });
    const moves = r.moves.map((m) => m.from + m.to + (m.promotion || ''));
    for (const m of moves) d = engine.applyMove(d, m.slice(0, 2), m.slice(2, 4), m.slice(4) || undefined);
    won = winner(d);
    dfen = engine.endTurn(d);
    turns.push({ side, dice, moves, fenAfter: dfen });
  }
  if (!won) throw new Error(`seed ${seed}: no king captured in ${maxTurns} turns`);
  return gameHistory({
    gameId: `bots-${seed}`,
    turns,
    winner: won,
    termination: 'king_captured',
    white: { name: white, kind: 'bot' },
    black: { name: black, kind: 'bot' },
  });
}
