// The JVM build's JS API, drop-in: the calls of `fortemate/dicechess-engine`'s `DiceChess`
// (Scala.js; js/src/main/scala/dicechess/engine/api/JsApi.scala and RulesOps.scala,
// EngineFacade.scala, js/dicechess-engine.d.ts, js/dicechess-rules.d.ts, and
// docs/src/content/docs/architecture/javascript-api.md) with their argument and return
// conventions. The expectations are theirs: the examples of their JsApiSpec.scala and
// RulesApiSpec.scala, their documentation, and counts that follow from their code.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as esm from '../pkg/index.mjs';
import { engine } from './load.mjs';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const PROMO = 'k7/4P3/8/8/8/8/8/4K3 w - - 0 1 P'; // RulesApiSpec's promoDfen
const BAD = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1 PNB';
const KIWI = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

test('the JVM names are exported by require and import', () => {
  for (const n of ['getPieceFromDice', 'getPieceTypeAt', 'generateMoves', 'perft', 'validateDfen']) {
    assert.equal(typeof engine[n], 'function', n);
    assert.equal(esm[n], engine[n], n);
  }
});

test('getPieceFromDice: 1..6 → p n b r q k, null otherwise (javascript-api.md, RulesApiSpec)', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(engine.getPieceFromDice), ['p', 'n', 'b', 'r', 'q', 'k']);
  for (const bad of [0, 7, -1, 1.5, NaN, undefined, null]) {
    assert.equal(engine.getPieceFromDice(bad), null, String(bad));
  }
});

test('getPieceTypeAt: the die face of the piece on a square, undefined when empty or invalid (EngineFacade)', () => {
  assert.equal(engine.getPieceTypeAt(START, 'e2'), 1, 'their example: 1 for a pawn');
  assert.deepEqual(['a1', 'b1', 'c1', 'd1', 'e1'].map((s) => engine.getPieceTypeAt(START, s)), [4, 2, 3, 5, 6]);
  assert.equal(engine.getPieceTypeAt(START, 'd8'), 5, 'either colour');
  assert.equal(engine.getPieceTypeAt(START, 'e4'), undefined, 'empty square');
  assert.equal(engine.getPieceTypeAt(START, 'e9'), undefined, 'not a square');
  assert.equal(engine.getPieceTypeAt(START, null), undefined);
  assert.equal(engine.getPieceTypeAt('invalid-fen', 'e2'), undefined);
  assert.equal(engine.getPieceTypeAt(null, 'e2'), undefined);
});

test('generateMoves: pseudo-legal moves of the dice, or of every piece without dice (RulesOps, RulesApiSpec)', () => {
  const start = engine.generateMoves(START);
  assert.equal(start.length, 20, 'RulesApiSpec: 20 from the start');
  assert.ok(start.includes('e2e4'));
  assert.equal(engine.generateMoves(PROMO).length, 4, 'RulesApiSpec: the four promotions');
  assert.deepEqual(engine.generateMoves('invalid-fen'), []);
  assert.deepEqual(engine.generateMoves(BAD), []);
  assert.deepEqual(engine.generateMoves(null), []);
  // MoveGenerator.generateMoves: the distinct dice's piece types, no maximum-dice rule.
  assert.deepEqual(engine.generateMoves(`${START} NNN`).sort(), ['b1a3', 'b1c3', 'g1f3', 'g1h3']);
  assert.equal(engine.generateMoves(`${START} PNB`).length, 20, '16 pawn + 4 knight, bishops blocked');
  // addPawnCaptures: a capture of a king on the last rank is one move, no promotion.
  assert.deepEqual(engine.generateMoves('3k4/4P3/8/8/8/8/8/4K3 w - - 0 1 P').sort(), ['e7d8', 'e7e8b', 'e7e8n', 'e7e8q', 'e7e8r']);
  // generateCastlingMoves: castling under the king die, whatever the other dice.
  assert.deepEqual(
    engine.generateMoves('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 K').sort(),
    ['e1c1', 'e1d1', 'e1d2', 'e1e2', 'e1f1', 'e1f2', 'e1g1'],
  );
  // generateAllMoves (no dice): every piece type, castling included; Kiwipete has 48 moves, all pseudo-legal.
  const kiwi = engine.generateMoves(KIWI);
  assert.equal(kiwi.length, 48);
  assert.ok(kiwi.includes('e1g1') && kiwi.includes('e1c1'));
  assert.deepEqual(engine.generateMoves(`${START.replace(' w ', ' b ')}`).slice(0, 2), ['a7a6', 'a7a5'], 'black moves for black to move');
});

test('perft: leaf counts of generateMoves, 0 for a bad DFEN or a negative depth (Perft.countNodes, RulesApiSpec)', () => {
  assert.equal(engine.perft(START, 0), 1);
  assert.equal(engine.perft(START, 1), 20);
  assert.equal(engine.perft(START, 2), 400);
  assert.equal(engine.perft(START, 3), 8902, 'chess perft(3): no illegal move before ply 4');
  assert.equal(engine.perft(KIWI, 1), 48);
  assert.equal(engine.perft(PROMO, 1), engine.generateMoves(PROMO).length);
  assert.equal(engine.perft('invalid-fen', 1), 0);
  assert.equal(engine.perft(START, -1), 0);
  assert.equal(engine.perft(null, 1), 0);
  assert.equal(engine.perft(START, 2.9), 400, 'an Int depth: truncated');
  // The same dice for each side in turn: with one die this is the single-die perft.
  for (const [die, letter] of [[1, 'P'], [2, 'N'], [4, 'R'], [6, 'K']]) {
    assert.equal(engine.perft(`${KIWI} ${letter}`, 3), engine.perftSingleDie(KIWI, die, 3), letter);
  }
  // Two dice: each side moves one piece of either type per ply.
  assert.equal(engine.perft(`${START} PN`, 2), 20 * 20);
  assert.equal(engine.perft(`${START} NN`, 2), 16, 'a repeated die counts once');
});

test('validateDfen: true for a valid DFEN, the engine\'s Error naming the field for a bad one', () => {
  assert.equal(engine.validateDfen(START), true);
  assert.equal(engine.validateDfen(`${START} PNB`), true);
  assert.throws(() => engine.validateDfen(BAD), (e) => e instanceof Error && e.field === 'castling' && e.message.startsWith('castling: '));
  assert.throws(() => engine.validateDfen(`${START} PNBQ`), (e) => e.field === 'dice');
  assert.throws(() => engine.validateDfen('invalid-fen'), (e) => e.field === 'fields');
  assert.throws(() => engine.validateDfen(undefined), (e) => e.field === 'fields');
});

test('canonicalKey: the DFEN of the symmetry-class representative (Symmetry.scala, board-symmetry.md, JsApiSpec)', () => {
  assert.equal(engine.canonicalKey(START), START, 'White to move with castling rights: itself');
  assert.equal(engine.canonicalKey(engine.canonicalKey(START)), START, 'idempotent');
  assert.equal(engine.canonicalKey('not-a-fen'), undefined, 'JsApiSpec: undefined for invalid input');
  assert.equal(engine.canonicalKey(BAD), undefined);
  assert.equal(engine.canonicalKey(null), undefined);
  // Colour flip: Black to move becomes White to move; clocks and dice kept, dice in the mover's case.
  assert.equal(engine.canonicalKey(`${START.replace(' w ', ' b ')} pnb`), `${START} PNB`);
  const flipped = 'rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 2';
  assert.equal(engine.canonicalKey(flipped), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 2');
  // Without castling rights the file mirror folds in: the smaller DFEN of the two.
  const rook = '4k3/8/8/8/8/8/8/R3K3 w - - 0 1';
  const mirrored = '3k4/8/8/8/8/8/8/3K3R w - - 0 1';
  const blackToMove = 'r3k3/8/8/8/8/8/8/4K3 b - - 0 1'; // rook's colour flip
  for (const d of [rook, mirrored, blackToMove, '3k3r/8/8/8/8/8/8/3K4 b - - 0 1']) {
    assert.equal(engine.canonicalKey(d), mirrored, d);
  }
  // With castling rights it does not (the mirror would be the smaller DFEN here).
  assert.equal(engine.canonicalKey('4k3/8/8/8/8/8/8/R3K3 w Q - 0 1'), '4k3/8/8/8/8/8/8/R3K3 w Q - 0 1');
  // The en-passant target is mirrored with the board: e6 becomes d6.
  const ep = '4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2';
  assert.equal(engine.canonicalKey(ep), '3k4/8/8/3pP3/8/8/8/3K4 w - d6 0 2');
});

test('applyMove without dice: the board editor plays any pseudo-legal move (RulesOps.playMove, JsApiSpec)', () => {
  // JsApiSpec's examples, each a DFEN without dice.
  assert.equal(engine.applyMove(START, 'e2', 'e4', undefined), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1');
  assert.equal(
    engine.applyMove('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1', 'e1', 'f1', undefined),
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w kq - 1 1',
    'castling rights are lost when the king moves',
  );
  assert.equal(
    engine.applyMove('rnbqkbnr/p1pppppp/8/8/1pP5/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 2', 'b4', 'c3', undefined),
    'rnbqkbnr/p1pppppp/8/8/8/2p5/PP1PPPPP/RNBQKBNR b KQkq - 0 2',
    'en passant removes the pawn',
  );
  const promo = 'rnbq1bnr/ppppPppp/8/8/8/8/PPP1PPPP/RNBQKBNR w KQ - 0 1';
  assert.equal(engine.applyMove(promo, 'e7', 'e8', 'q'), 'rnbqQbnr/pppp1ppp/8/8/8/8/PPP1PPPP/RNBQKBNR w KQ - 0 1');
  assert.equal(engine.applyMove(promo, 'e7', 'e8', 'n'), 'rnbqNbnr/pppp1ppp/8/8/8/8/PPP1PPPP/RNBQKBNR w KQ - 0 1');
  assert.equal(engine.applyMove(promo, 'e7', 'e8'), engine.applyMove(promo, 'e7', 'e8', 'q'), 'no piece: the first generated, the queen');
  assert.equal(engine.applyMove(START, 'e2', 'e5', undefined), undefined, 'pseudo-illegal');
  // Pseudo-legal, not legal: a move into check, castling across an attacked square.
  assert.equal(engine.applyMove('4k3/8/8/8/8/8/3r4/4K3 w - - 0 1', 'e1', 'e2'), '4k3/8/8/8/8/8/3rK3/8 w - - 1 1');
  assert.equal(engine.applyMove('4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1', 'e1', 'g1'), '4k3/8/8/8/8/8/5r2/R4RK1 w - - 1 1');
  // Any piece type: no die to spend.
  assert.equal(engine.applyMove(START, 'g1', 'f3'), 'rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 1 1');
});

test('applyMove never throws: undefined for a bad DFEN, square or piece (JsApiSpec)', () => {
  for (const [from, to] of [['e9', 'e4'], ['e2', 'z4'], ['foo', 'bar'], [null, 'e4'], ['e2', null]]) {
    assert.equal(engine.applyMove(START, from, to, undefined), undefined, `${from} ${to}`);
  }
  assert.equal(engine.applyMove('invalid-fen', 'e2', 'e4', undefined), undefined);
  assert.equal(engine.applyMove(BAD, 'e2', 'e4'), undefined);
  assert.equal(engine.applyMove(null, 'e2', 'e4', undefined), undefined);
  assert.equal(engine.applyMove(PROMO, 'e7', 'e8', 'k'), undefined, 'no king promotion');
  // With dice: RulesApiSpec's example, the die spent.
  assert.equal(engine.applyMove(PROMO, 'e7', 'e8', 'q'), 'k3Q3/8/8/8/8/8/8/4K3 w - - 0 1');
});

test('getAvailableTimePolicies: the built-in policy ids, the default first (JsApiSpec, javascript-api.md)', () => {
  assert.deepEqual(engine.getAvailableTimePolicies(), ['empirical-v1', 'legacy-linear-v1']);
  assert.equal(esm.getAvailableTimePolicies, engine.getAvailableTimePolicies);
});

// JsApiSpec's budgetDfen: one legal turn (the promotion), no king capture.
test('getBestMove: clock, timePolicy and timeBudgetMs as the JVM build turns them into budgetMs (JsApiSpec)', () => {
  const mc = (o) => engine.getBestMove(PROMO, { algorithm: 'monte-carlo', ...o });
  const legal = (r) => r.moves.length === 1 && r.moves[0].from === 'e7' && r.moves[0].to === 'e8';
  assert.deepEqual(Object.keys(mc({})).slice(0, 4), ['moves', 'score', 'timeTakenMs', 'budgetMs']);
  const timed = mc({ timeBudgetMs: 25 });
  assert.ok(legal(timed));
  assert.equal(timed.budgetMs, 25);
  assert.equal(mc({}).budgetMs, 0, 'an unbounded search reports a zero budget');
  const greedy = engine.getBestMove(PROMO, { algorithm: 'greedy', timeBudgetMs: 25, clock: { remainingMs: 60000, incrementMs: 0 } });
  assert.ok(legal(greedy));
  assert.equal(greedy.budgetMs, 0, 'a bot without a deadline ignores both');
  // TimeManager.budgetMs(clock, 150) by hand (docs: reserve max(300, 5 %), spendable / turns left + increment,
  // cap 20 %, 200 ms under 2 s spendable, at least 20 ms; less the 150 ms worker allowance, at least 20).
  // 400 ms: 100 spendable → 20 ms, the floor.
  assert.equal(mc({ clock: { remainingMs: 400, incrementMs: 0, moveNumber: 40 } }).budgetMs, 20);
  assert.equal(mc({ clock: { remainingMs: 400, incrementMs: 0, moveNumber: 40 }, timeBudgetMs: 9999 }).budgetMs, 20, 'the clock wins');
  // 5000 ms at move 1: 4700 spendable; empirical-v1 expects 7.517 turns (625 → 475), legacy-linear-v1 29 (162 → 20).
  const clock = { remainingMs: 5000, incrementMs: 0, moveNumber: 1 };
  assert.equal(mc({ clock }).budgetMs, 475);
  assert.equal(mc({ clock, timePolicy: 'empirical-v1' }).budgetMs, 475);
  assert.equal(mc({ clock, timePolicy: 'legacy-linear-v1' }).budgetMs, 20);
  assert.equal(mc({ clock, timePolicy: 'LEGACY-LINEAR-V1' }).budgetMs, 20, 'ids are case-insensitive');
  assert.equal(mc({ clock, timePolicy: 'unknown' }).budgetMs, 475, 'an unknown id: the default');
  // moveNumber defaults to the DFEN's full-move number: 60 s, 57 s spendable; at move 1 7.517 turns, at 40 12.05.
  assert.equal(mc({ clock: { remainingMs: 60000 } }).budgetMs, 7582 - 150);
  assert.equal(mc({ clock: { remainingMs: 60000, moveNumber: 40 } }).budgetMs, 4730 - 150);
  assert.equal(mc({ clock: { remainingMs: 60000, movesToGo: 10 } }).budgetMs, 5700 - 150, 'an explicit movesToGo');
  assert.equal(mc({ clock: { remainingMs: 60000, incrementMs: 1000, movesToGo: 10 } }).budgetMs, 6700 - 150, 'plus the increment');
  // A malformed or non-finite clock falls back to timeBudgetMs.
  assert.equal(mc({ clock: { incrementMs: 5000 }, timeBudgetMs: 25 }).budgetMs, 25);
  assert.equal(mc({ clock: { remainingMs: Infinity, incrementMs: NaN }, timeBudgetMs: 25 }).budgetMs, 25);
  assert.equal(mc({ clock: null, timeBudgetMs: 25 }).budgetMs, 25);
});

test('getBestMove: the JVM build\'s answers for bad input (JsApiSpec, BotRegistry)', () => {
  const zero = { moves: [], score: 0, timeTakenMs: 0, budgetMs: 0 };
  for (const d of [null, undefined, 'invalid-fen', BAD]) {
    const r = engine.getBestMove(d);
    assert.deepEqual({ moves: r.moves, score: r.score, timeTakenMs: r.timeTakenMs, budgetMs: r.budgetMs }, zero, String(d));
  }
  assert.equal(engine.getBestMove(PROMO, { algorithm: 'no-such-bot' }).algorithm, 'greedy', 'an unknown id: the default');
  assert.equal(engine.getBestMove(PROMO, { algorithm: 'Monte-Carlo', timeBudgetMs: 25 }).algorithm, 'monte-carlo', 'any case');
  assert.equal(engine.getBestMove(PROMO, 7).algorithm, 'greedy', 'options not an object: defaults');
  assert.equal(engine.getBestMove(PROMO, { algorithm: 'monte-carlo', timeBudgetMs: 'x' }).budgetMs, 0, 'not a number: ignored');
  assert.equal(engine.getBestMove(PROMO, { algorithm: 'monte-carlo', timeBudgetMs: -5 }).budgetMs, 0, 'not positive: ignored');
  assert.deepEqual(engine.getBestMove(START).moves, [], 'no dice: no move');
});

// SearchAlgorithm's defaults (GreedySearch keeps them): never offer a double, take one when the logistic
// win probability 1 / (1 + e^(−eval/400)) of the side to move exceeds 0.25, never offer or accept a draw.
// The cautious bot (0.70 / 0.35, a draw offered after move 30 when |eval| < 50, accepted when eval < −100)
// and the Monte-Carlo bot (draws on dead-draw material) override them.
test('shouldBotOfferDouble, shouldBotAcceptDouble, shouldBotOfferDraw, shouldBotAcceptDraw (javascript-api.md)', () => {
  const lost = 'rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w kq - 0 1'; // a lone king to move against the full army
  const won = '4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1';
  const dead = '8/4k3/8/8/8/3BK3/8/8 w - - 0 1'; // K+B v K, the bishop's light squares, the king on a dark one
  const late = START.replace(' 0 1', ' 0 31');
  const ask = (d, algorithm) => {
    const o = algorithm === undefined ? undefined : { algorithm };
    return [
      engine.shouldBotOfferDouble(d, 1, o),
      engine.shouldBotAcceptDouble(d, 2, o),
      engine.shouldBotOfferDraw(d, o),
      engine.shouldBotAcceptDraw(d, o),
    ];
  };
  for (const algorithm of [undefined, 'greedy', 'GREEDY', 'no-such-bot']) {
    assert.deepEqual(ask(START, algorithm), [false, true, false, false], `${algorithm}: even, take`);
    assert.deepEqual(ask(lost, algorithm), [false, false, false, false], `${algorithm}: lost, drop`);
    assert.deepEqual(ask(won, algorithm), [false, true, false, false], `${algorithm}: never offers`);
  }
  assert.deepEqual(ask(START, 'cautious-greedy'), [false, true, false, false]);
  assert.deepEqual(ask(late, 'cautious-greedy'), [false, true, true, false], 'after move 30, level: offers a draw');
  assert.deepEqual(ask(won, 'cautious-greedy'), [true, true, false, false], 'p > 0.70: doubles');
  assert.deepEqual(ask(lost, 'cautious-greedy'), [false, false, false, true], 'eval < −100: accepts a draw');
  assert.deepEqual(ask(dead, 'monte-carlo').slice(2), [true, true], 'dead-draw material');
  assert.deepEqual(ask(START, 'monte-carlo').slice(2), [false, false]);
  assert.deepEqual(ask(late, 'aggressive').slice(2), [false, false], 'never draws');
  assert.deepEqual(ask(lost, 'aggressive').slice(2), [false, false], 'never draws');
  // The random bot's coin flips: 15 % offer, 50 % take, 5 % draw offers, 20 % draw accepts.
  const share = (f) => {
    let n = 0;
    for (let seed = 0; seed < 2000; seed++) n += f({ algorithm: 'random', seed });
    return n / 2000;
  };
  assert.ok(Math.abs(share((o) => engine.shouldBotOfferDouble(START, 1, o)) - 0.15) < 0.04);
  assert.ok(Math.abs(share((o) => engine.shouldBotAcceptDouble(START, 2, o)) - 0.5) < 0.05);
  assert.ok(Math.abs(share((o) => engine.shouldBotOfferDraw(START, o)) - 0.05) < 0.025);
  assert.ok(Math.abs(share((o) => engine.shouldBotAcceptDraw(START, o)) - 0.2) < 0.04);
  // A bad DFEN: false, never an error.
  for (const d of [null, undefined, 'invalid-fen', BAD]) {
    assert.deepEqual(ask(d, 'cautious-greedy'), [false, false, false, false], String(d));
  }
  for (const n of ['shouldBotOfferDouble', 'shouldBotAcceptDouble', 'shouldBotOfferDraw', 'shouldBotAcceptDraw']) {
    assert.equal(esm[n], engine[n], n);
  }
});

test('getLegalUciMoves and endTurn: JsApiSpec\'s and RulesApiSpec\'s examples, [] and undefined for bad input', () => {
  assert.deepEqual(engine.getLegalUciMoves(PROMO).sort(), ['e7e8b', 'e7e8n', 'e7e8q', 'e7e8r']);
  assert.deepEqual(engine.getLegalUciMoves('k7/4P3/8/8/8/8/8/4K3 w - - 0 1'), [], 'no dice');
  assert.deepEqual(engine.getLegalUciMoves('invalid-fen'), []);
  assert.deepEqual(engine.getLegalUciMoves(null), []);
  assert.deepEqual(engine.getLegalUciMoves(BAD), []);
  assert.equal(
    engine.endTurn('rnbqkbnr/p1pppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6e3 0 1 PN'),
    'rnbqkbnr/p1pppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
    'the stale c6 goes, e3 stays, the dice go',
  );
  assert.equal(engine.endTurn(START.replace(' w ', ' b ')), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2');
  assert.equal(engine.endTurn('invalid-fen'), undefined);
  assert.equal(engine.endTurn(null), undefined);
  assert.equal(engine.endTurn(BAD), undefined);
});

test('estimateEquity: JsApiSpec\'s checks, the JVM defaults (200 rollouts, 60 plies, a fresh seed) and its neutral answer', () => {
  const r = engine.estimateEquity(START, { rollouts: 8, maxPlies: 6, seed: 1 });
  assert.ok(Math.abs(r.whiteWin + r.blackWin + r.undecided - 1) < 1e-9, 'the masses sum to 1');
  assert.equal(r.rollouts, 8);
  const opts = { rollouts: 12, maxPlies: 6, seed: 7 };
  assert.equal(engine.estimateEquity(START, opts).whiteWin, engine.estimateEquity(START, opts).whiteWin, 'a seed: deterministic');
  const neutral = { whiteWin: 0, blackWin: 0, undecided: 1, rollouts: 0, standardError: 0, varianceReductionVsVanilla: 0 };
  for (const d of ['not-a-fen', null, BAD]) {
    const n = engine.estimateEquity(d);
    for (const [k, v] of Object.entries(neutral)) assert.equal(n[k], v, `${d}: ${k}`);
  }
  const kiwi = KIWI;
  assert.deepEqual(engine.estimateEquity(kiwi, { seed: 3 }), engine.estimateEquity(kiwi, { seed: 3, rollouts: 200, maxPlies: 60 }));
  assert.equal(engine.estimateEquity(kiwi, { seed: 3 }).rollouts, 200);
  const fresh = new Set(Array.from({ length: 5 }, () => engine.estimateEquity(kiwi, { rollouts: 16, maxPlies: 6 }).whiteWin));
  assert.ok(fresh.size > 1, 'no seed: a fresh one each call');
});

test('registerOpeningBookBot: a book over a bot, played by getBestMove; false for bad input (JsApiSpec)', () => {
  const d = `${START} BPR`;
  const k = engine.positionKeys(d);
  const turns = engine.getLegalTurns(d);
  const booked = turns[turns.length - 1]; // greedy does not play it unbooked
  assert.notDeepEqual(engine.getBestMove(d, { algorithm: 'greedy' }).moves.map((m) => m.from + m.to).sort(), [...booked].sort());
  const tsv = `${k.normalizedFen} ${k.diceKey}\t${booked.join(',')}\n`;
  assert.equal(engine.registerOpeningBookBot(tsv, 'greedy', 'greedy-book-test', 'Greedy + Book'), true);
  assert.equal(engine.registerOpeningBookBot(tsv, 'no-such-bot', 'x', 'X'), false, 'unknown base bot');
  assert.equal(engine.registerOpeningBookBot('not tsv\tformat\textra', 'greedy', 'y', 'Y'), false, 'malformed TSV');
  assert.equal(engine.registerOpeningBookBot(null, 'greedy', 'z', 'Z'), false);
  const r = engine.getBestMove(d, { algorithm: 'greedy-book-test' });
  assert.deepEqual(r.moves.map((m) => m.from + m.to).sort(), [...booked].sort(), 'the booked turn');
  assert.equal(r.algorithm, 'greedy-book-test');
  const listed = engine.getAvailableBots();
  assert.deepEqual(listed.find((b) => b.id === 'greedy-book-test'), {
    id: 'greedy-book-test',
    name: 'Greedy + Book',
    description: "Opening-book bot decorating 'greedy'.",
    difficulty: listed.find((b) => b.id === 'greedy').difficulty,
    isExperimental: true,
  });
  assert.ok(!listed.some((b) => ['x', 'y', 'z'].includes(b.id)), 'nothing registered for bad input');
  // Off the book the base bot answers; a time-budgeted base keeps its budget (OpeningBookBot.decorate).
  const off = `${START} PNN`;
  assert.deepEqual(engine.getBestMove(off, { algorithm: 'greedy-book-test' }).moves, engine.getBestMove(off, { algorithm: 'greedy' }).moves);
  assert.equal(engine.registerOpeningBookBot(tsv, 'monte-carlo', 'mc-book', 'MC + Book'), true);
  assert.equal(engine.getBestMove(off, { algorithm: 'MC-Book', timeBudgetMs: 25 }).budgetMs, 25);
  assert.equal(engine.getBestMove(off, { algorithm: 'greedy-book-test', timeBudgetMs: 25 }).budgetMs, 0);
  // A book over a registered bot.
  assert.equal(engine.registerOpeningBookBot(tsv, 'greedy-book-test', 'twice', 'Twice'), true);
  assert.deepEqual(engine.getBestMove(d, { algorithm: 'twice' }).moves, r.moves);
});

test('applyMove with dice: RulesOps.findPseudoLegalMove\'s promotion match', () => {
  const queen = 'k3Q3/8/8/8/8/8/8/4K3 w - - 0 1';
  assert.equal(engine.applyMove(PROMO, 'e7', 'e8'), queen, 'no piece: the first listed, the queen');
  assert.equal(engine.applyMove(PROMO, 'e7', 'e8', undefined), queen);
  assert.equal(engine.applyMove(PROMO, 'e7', 'e8', 'r'), 'k3R3/8/8/8/8/8/8/4K3 w - - 0 1');
  const d = `${START} PNB`;
  assert.equal(engine.applyMove(d, 'e2', 'e4', 'q'), engine.applyMove(d, 'e2', 'e4'), 'a piece for a move that does not promote: ignored');
});

test('DiceChess: the JVM build\'s object, in the CommonJS, Node ESM and browser builds', async () => {
  const { readFileSync } = await import('node:fs');
  const { root } = await import('./load.mjs');
  const path = await import('node:path');
  // js/dicechess-engine.d.ts's DiceChessApi and js/dicechess-rules.d.ts's DiceChessRulesApi.
  const theirs = [
    'getAvailableBots', 'getAvailableTimePolicies', 'getLegalUciMoves', 'getPieceFromDice', 'registerOpeningBookBot',
    'getBestMove', 'applyMove', 'endTurn', 'shouldBotOfferDouble', 'shouldBotAcceptDouble', 'shouldBotOfferDraw',
    'shouldBotAcceptDraw', 'estimateEquity', 'canonicalKey', 'generateMoves', 'perft',
  ];
  const web = await import('../pkg/web/dicechess_web.js');
  web.initSync({ module: readFileSync(path.join(root, 'web', 'pkg', 'web', 'dicechess_web_bg.wasm')) });
  for (const dc of [engine.DiceChess, esm.DiceChess, web.DiceChess]) {
    assert.ok(Object.isFrozen(dc));
    for (const n of theirs) assert.equal(typeof dc[n], 'function', n);
    assert.equal(dc.getPieceFromDice(5), 'q');
    assert.equal(dc.perft(START, 2), 400);
  }
  assert.equal(esm.DiceChess, engine.DiceChess);
  for (const [n, f] of Object.entries(engine.DiceChess)) assert.equal(f, engine[n], n);
  for (const [n, f] of Object.entries(web.DiceChess)) assert.equal(f, web[n], n);
});

test('EngineFacade: the JVM build\'s legacy object (EngineFacade.scala, js/dicechess-engine.d.ts)', () => {
  const f = engine.EngineFacade;
  assert.equal(esm.EngineFacade, f);
  assert.ok(Object.isFrozen(f));
  assert.deepEqual(Object.keys(f), ['getBotMove', 'getPieceTypeAt', 'applyMove', 'endTurn']);
  assert.equal(f.getPieceTypeAt(START, 'e2'), 1, 'its example: 1 for a pawn');
  // getBotMove: "always beat the king if it is possible", else a random move of generateMoves.
  assert.deepEqual(f.getBotMove('4k3/8/8/8/8/8/8/4RK2 w - - 0 1 PR'), { from: 'e1', to: 'e8' });
  assert.deepEqual(f.getBotMove('3k4/4P3/8/8/8/8/8/4K3 w - - 0 1 P', 1), { from: 'e7', to: 'd8' });
  const d = `${START} PNB`;
  const generated = new Set(engine.generateMoves(d));
  for (let seed = 0; seed < 20; seed++) {
    const m = f.getBotMove(d, seed);
    assert.ok(generated.has(m.from + m.to + (m.promotion ?? '')), `seed ${seed}`);
    assert.deepEqual(f.getBotMove(d, seed), m, 'a seed: reproducible');
  }
  const promo = f.getBotMove(PROMO, 3);
  assert.ok(['q', 'r', 'b', 'n'].includes(promo.promotion) && promo.from === 'e7' && promo.to === 'e8');
  for (const bad of [START, 'invalid-fen', null, '4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPP']) {
    assert.equal(f.getBotMove(bad), undefined, String(bad));
  }
  // applyMove: pseudo-legal, whatever the dice, and the pool emptied by its makeMove.
  const knight = 'rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 1 1';
  assert.equal(f.applyMove(`${START} P`, 'g1', 'f3'), knight, 'no knight die needed');
  assert.equal(f.applyMove(`${START} PNB`, 'g1', 'f3'), knight);
  assert.equal(f.applyMove(START, 'e2', 'e5'), undefined);
  assert.equal(f.applyMove('invalid-fen', 'e2', 'e4'), undefined);
  assert.equal(f.endTurn(`${START} PNB`), START.replace(' w ', ' b '));
  assert.equal(f.endTurn('invalid-fen'), undefined);
});

// RulesApiSpec (#279): applyMove with dice keeps the unspent dice, castling spends the king and
// the rook die, a move no die allows is refused (undefined, never an error); DiceChess answers alike.
test('applyMove with dice: RulesApiSpec\'s examples, the unspent dice kept', () => {
  assert.equal(engine.applyMove(`${START} PPN`, 'e2', 'e4', undefined), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 PN');
  assert.equal(engine.applyMove('4k3/8/8/8/8/8/4P3/4K2R w K - 0 1 PRK', 'e1', 'g1', undefined), '4k3/8/8/8/8/8/4P3/5RK1 w - - 1 1 P');
  assert.equal(engine.applyMove(`${START} NNN`, 'e2', 'e4', undefined), undefined, 'no die allows it');
  assert.equal(engine.applyMove(`${START} NNN`, 'e1', 'e2', undefined), undefined, 'not even pseudo-legal');
  // js/README.md's walk-through: the micro-move keeps White to move, endTurn passes to Black.
  const pn = `${START} PN`;
  assert.ok(['e2e3', 'e2e4', 'b1c3', 'b1a3'].every((m) => engine.getLegalUciMoves(pn).includes(m)));
  const next = engine.applyMove(pn, 'e2', 'e4');
  assert.equal(next, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 N');
  assert.equal(engine.endTurn(next), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
  // Spent dice: a position without dice, where any pseudo-legal move goes (RulesOps.playMove).
  const spent = engine.applyMove(PROMO, 'e7', 'e8', 'q');
  assert.equal(engine.applyMove(spent, 'e1', 'd2'), 'k3Q3/8/8/8/8/8/3K4/8 w - - 1 1');
  for (const [d, from, to] of [[`${START} PPN`, 'e2', 'e4'], ['4k3/8/8/8/8/8/4P3/4K2R w K - 0 1 PRK', 'e1', 'g1'], [`${START} NNN`, 'e2', 'e4']]) {
    assert.equal(engine.DiceChess.applyMove(d, from, to), engine.applyMove(d, from, to));
  }
});

// The two differences web/README.md states: ours answers getLegalUciMoves' rule (a move must begin a
// legal turn of the roll), theirs any move a die pays for; ours voids the dice a king capture leaves.
test('applyMove with dice: where ours differs from RulesOps.playMove, by design', () => {
  // N and P: b1c3 blocks the only pawn, so the turn would spend one die where two can be spent
  // (c2c3 then a knight move); RulesOps would answer '7k/8/8/8/8/2N5/2P5/7K w - - 1 1 P'.
  const blocked = '7k/8/8/8/8/8/2P5/1N5K w - - 0 1 NP';
  assert.ok(engine.generateMoves(blocked).includes('b1c3'), 'pseudo-legal, the knight die pays');
  assert.ok(!engine.getLegalUciMoves(blocked).includes('b1c3'), 'but begins no legal turn');
  assert.equal(engine.applyMove(blocked, 'b1', 'c3'), undefined);
  assert.equal(engine.EngineFacade.applyMove(blocked, 'b1', 'c3'), '7k/8/8/8/8/2N5/2P5/7K w - - 1 1', 'the dice-blind facade plays it');
  // PlayableDice's king capture (their PlayableDiceSpec): theirs keeps "PP", ours voids them (docs/rules.md §2.6).
  const king = '8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP';
  assert.equal(engine.applyMove(king, 'b3', 'c5'), '8/8/8/2N5/8/8/2P5/K7 w - - 0 1');
  assert.deepEqual(engine.getLegalUciMoves(engine.applyMove(king, 'b3', 'c5')), [], 'the game is over');
});

// javascript-api.md: the built-in algorithms are "random", "checkmate-aware", "greedy", "greedy-v2",
// "aggressive" and "monte-carlo", the default "greedy"; BotRegistry.getAlgorithm: any case.
test('getBestMove: every bot id of the JVM build plays, in any case; getAvailableBots has them all', () => {
  const theirs = ['random', 'checkmate-aware', 'greedy', 'greedy-v2', 'aggressive', 'monte-carlo'];
  const d = `${START} PNB`;
  const legal = new Set(engine.getLegalTurns(d).map((t) => t.join(',')));
  for (const id of theirs) {
    for (const asked of [id, id.toUpperCase()]) {
      const r = engine.getBestMove(d, { algorithm: asked, timeBudgetMs: 30, seed: 1 });
      assert.equal(r.algorithm, id, `${asked}: played by itself`);
      assert.equal(r.fallback, false, asked);
      assert.ok(legal.has(r.moves.map((m) => m.from + m.to).join(',')), `${asked}: a legal turn`);
    }
  }
  // Listed: ours under our registry's ids, `greedy-v2` as `cautious-greedy` (its name, "Cautious Greedy", theirs).
  const listed = engine.getAvailableBots();
  const ids = listed.map((b) => b.id);
  for (const id of theirs) assert.ok(ids.includes(id === 'greedy-v2' ? 'cautious-greedy' : id), id);
  assert.equal(listed.find((b) => b.id === 'cautious-greedy').name, 'Cautious Greedy');
  // greedy-v2 wherever an id goes: the draw policy (an even position after move 30) and a book's base.
  const late = '4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 31';
  assert.deepEqual(['greedy-v2', 'GREEDY-V2', 'cautious-greedy', 'greedy'].map((a) => engine.shouldBotOfferDraw(late, { algorithm: a })), [true, true, true, false]);
  const k = engine.positionKeys(d);
  assert.equal(engine.registerOpeningBookBot(`${k.normalizedFen} ${k.diceKey}\te2e4,b1c3,c1d2\n`, 'greedy-v2', 'v2-book', 'V2 + Book'), true);
  const difficulty = Object.fromEntries(listed.map((b) => [b.id, b.difficulty]));
  const order = ['random', 'checkmate-aware', 'greedy', 'cautious-greedy', 'aggressive', 'monte-carlo'];
  assert.deepEqual([...order].sort((a, b) => difficulty[a] - difficulty[b]), order, 'their difficulty order');
  // BotRegistry.availableBots sorts by difficulty, registered bots (earlier tests' books, at
  // their base's difficulty) included; ours keeps the registry's order within a difficulty.
  assert.ok(ids.includes('greedy-book-test'), 'a book bot registered above');
  assert.deepEqual(ids, [...ids].sort((a, b) => difficulty[a] - difficulty[b]), 'sorted by difficulty, as availableBots');
  for (const b of listed) {
    assert.deepEqual(Object.keys(b), ['id', 'name', 'description', 'difficulty', 'isExperimental'], b.id);
  }
});

// RulesApiSpec: every function of the rules entry answers exactly as its DiceChess counterpart.
test('the rules entry (dicechess-web/rules) answers as the full one, and binds no bot', async () => {
  const { createRequire } = await import('node:module');
  const { root } = await import('./load.mjs');
  const path = await import('node:path');
  const rules = createRequire(import.meta.url)(path.join(root, 'web', 'pkg', 'rules', 'node', 'dicechess_web_rules.js'));
  const rulesEsm = await import('../pkg/rules.mjs');
  assert.equal(rulesEsm.DiceChess, rules.DiceChess);
  // js/dicechess-rules.d.ts's DiceChessRulesApi.
  for (const n of ['getLegalUciMoves', 'generateMoves', 'applyMove', 'endTurn', 'perft', 'getPieceFromDice', 'canonicalKey']) {
    assert.equal(typeof rules.DiceChess[n], 'function', n);
  }
  for (const n of ['getBestMove', 'getAvailableBots', 'estimateEquity', 'analyzeGame', 'hint', 'shouldBotOfferDouble']) {
    assert.equal(rules[n], undefined, n);
  }
  const dfens = [START, `${START} PNB`, `${START} PPN`, PROMO, KIWI, `${KIWI} RKQ`, 'invalid-fen', BAD, null,
    'rnbqkbnr/p1pppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6e3 0 1 PN', '8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP'];
  for (const d of dfens) {
    for (const n of ['getLegalUciMoves', 'generateMoves', 'endTurn', 'canonicalKey', 'getLegalTurnTree']) {
      if (d === null && n === 'getLegalTurnTree') continue; // a string argument: null throws in both
      assert.deepEqual(rules[n](d), engine[n](d), `${n}(${d})`);
    }
    assert.equal(rules.perft(d, 2), engine.perft(d, 2), `perft(${d})`);
    for (const [from, to, p] of [['e2', 'e4'], ['e1', 'g1'], ['e7', 'e8', 'r'], ['b3', 'c5'], ['g1', 'f3']]) {
      assert.equal(rules.applyMove(d, from, to, p), engine.applyMove(d, from, to, p), `applyMove(${d}, ${from}${to})`);
    }
  }
  for (const d of [`${START} PNB`, `${KIWI} PNB`]) {
    assert.deepEqual(rules.getLegalTurns(d), engine.getLegalTurns(d));
    assert.deepEqual(rules.kingCaptureProbability(d), engine.kingCaptureProbability(d));
    assert.deepEqual(rules.positionKeys(d), engine.positionKeys(d));
  }
  assert.deepEqual([0, 1, 6, 7].map(rules.getPieceFromDice), [0, 1, 6, 7].map(engine.getPieceFromDice));
});
