// analyzeGame and hint on real games: two bots of the package play them (game.mjs), the
// analysis must hold its invariants turn by turn (error ≥ 0, best ≥ played, luck = the
// equity after the roll less the one before, forced turns cost nothing), read either game
// shape, report progress, agree with hint, and refuse a bad game naming what is wrong.
import test from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './load.mjs';
import { botGame } from './game.mjs';
import { gameRecord, equityCurve } from '../js/record.js';

// Seed 14: six turns with a pass (forced), a doubtful, a bad and a very bad turn; seed 30:
// sixteen turns with passes, a forced turn that moves, and every class of decision.
const GAMES = [botGame(14, 'greedy', 'expectimax'), botGame(30, 'greedy', 'expectimax')];
const ERRORS = [0.02, 0.04, 0.08];
const LUCK = [0.15, 0.3];
const classOf = (error, forced) =>
  forced ? 'forced'
    : error <= 0 ? 'best'
      : error < ERRORS[0] ? 'good'
        : error < ERRORS[1] ? 'doubtful'
          : error < ERRORS[2] ? 'bad' : 'veryBad';
const luckOf = (l) =>
  l >= LUCK[1] ? 'veryLucky' : l >= LUCK[0] ? 'lucky' : l <= -LUCK[1] ? 'veryUnlucky' : l <= -LUCK[0] ? 'unlucky' : 'normal';
const letters = (faces, color) => {
  const s = faces.map((f) => 'PNBRQK'[f - 1]).join('');
  return color === 'w' ? s : s.toLowerCase();
};
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const close = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

/** Exact depth-2 analyses of GAMES, with the progress calls each made. */
const exact = GAMES.map((h) => {
  const calls = [];
  const a = engine.analyzeGame(JSON.stringify(h), { onProgress: (done, total) => calls.push([done, total]) });
  return { h, a, calls };
});

test('analyzeGame: the analysis of a bot game, turn by turn', () => {
  for (const { h, a } of exact) {
    assert.deepEqual(Object.keys(a), ['gameId', 'initialDfen', 'result', 'termination', 'evaluator', 'depth', 'turns', 'white', 'black']);
    assert.equal(a.gameId, h.gameId);
    assert.equal(a.result, h.result);
    assert.equal(a.termination, 'king_captured');
    assert.equal(a.depth, 2);
    assert.match(a.evaluator, /logistic/);
    assert.equal(a.turns.length, h.turns.length);
    let before = engine.canonicalDfen(h.initialDfen);
    a.turns.forEach((t, i) => {
      const r = h.turns[i];
      const at = `${h.gameId} turn ${t.turnNumber}`;
      assert.equal(t.turnNumber, i + 1);
      assert.equal(t.activeColor, r.activeColor === 'White' ? 'w' : 'b');
      assert.deepEqual([t.dice, t.moves], [r.dice, r.moves], at);
      assert.equal(t.fenBefore, before, at);
      assert.equal(t.fenAfter, engine.canonicalDfen(r.fenAfter), at);
      before = t.fenAfter;
      for (const k of ['equityBefore', 'equityAfterRoll', 'bestEquity', 'playedEquity', 'kingRisk', 'bestKingRisk']) {
        assert.ok(t[k] >= 0 && t[k] <= 1, `${at}: ${k} ${t[k]}`);
      }
      assert.ok(t.error >= 0, `${at}: error ${t.error}`);
      assert.ok(t.bestEquity >= t.playedEquity, `${at}: best ${t.bestEquity} < played ${t.playedEquity}`);
      assert.equal(t.luck, t.equityAfterRoll - t.equityBefore, `${at}: luck`);
      const forced = t.candidates === 1;
      assert.equal(t.class === 'forced', forced, at);
      if (forced) {
        assert.equal(t.error, 0, `${at}: a forced turn costs nothing`);
        assert.deepEqual(t.bestMoves, t.moves, at);
      } else {
        assert.equal(t.error, t.bestEquity - t.playedEquity, `${at}: error`);
      }
      assert.equal(t.class, classOf(t.error, forced), at);
      assert.equal(t.luckClass, luckOf(t.luck), at);
      assert.equal(t.valued, t.candidates, `${at}: exact, every candidate valued`);
      // Both turns are legal turns of the roll.
      const rolled = `${t.fenBefore} ${letters(t.dice, t.activeColor)}`;
      const legal = engine.getLegalTurns(rolled).map((m) => m.join(','));
      for (const m of [t.moves, t.bestMoves]) {
        if (m.length === 0) assert.deepEqual(legal, [], `${at}: a pass`);
        else assert.ok(legal.includes(m.join(',')), `${at}: ${m} legal`);
      }
      for (const k of ['kingRisk', 'bestKingRisk']) assert.ok(Number.isInteger(Math.round(t[k] * 216 * 1e6) / 1e6), `${at}: ${k} in 216ths`);
    });
    // The summaries are the turns' sums.
    for (const s of [a.white, a.black]) {
      const mine = a.turns.filter((t) => t.activeColor === s.color);
      assert.equal(s.turns, mine.length);
      assert.equal(s.decisions, mine.filter((t) => t.class !== 'forced').length);
      close(s.totalError, sum(mine.map((t) => t.error)), 'totalError');
      close(s.totalLuck, sum(mine.map((t) => t.luck)), 'totalLuck');
      assert.deepEqual([s.doubtful, s.bad, s.veryBad], ['doubtful', 'bad', 'veryBad'].map((c) => mine.filter((t) => t.class === c).length));
      const won = (h.result === 1) === (s.color === 'w');
      assert.equal(s.result, won ? 1 : 0);
      assert.deepEqual(s.worst.map((w) => w.turnNumber), mine.filter((t) => t.error > 0).sort((x, y) => y.error - x.error).slice(0, 3).map((t) => t.turnNumber));
    }
    assert.equal(a.white.name, 'greedy');
    assert.equal(a.black.name, 'expectimax');
    // The equity graph's points: one before turn 1, one after each turn.
    assert.equal(equityCurve(a).length, a.turns.length + 1);
  }
  // What the two games were chosen for.
  const [g14, g30] = exact.map((e) => e.a.turns);
  assert.ok(g14.some((t) => t.moves.length === 0 && t.class === 'forced'), 'a pass');
  assert.ok(g30.some((t) => t.moves.length > 0 && t.class === 'forced'), 'a forced turn that moves');
  for (const c of ['best', 'good', 'doubtful', 'bad', 'veryBad']) {
    assert.ok(g14.some((t) => t.class === c) || c === 'good', `${c} in game 14`);
    assert.ok(g30.some((t) => t.class === c), `${c} in game 30`);
  }
});

test('analyzeGame reports progress once a turn', () => {
  for (const { h, calls } of exact) {
    const n = h.turns.length;
    assert.deepEqual(calls, Array.from({ length: n }, (_, i) => [i + 1, n]));
  }
});

test('analyzeGame reads a history or a record, as text or an object', () => {
  const { h } = exact[0];
  const text = engine.analyzeGame(JSON.stringify(h), { depth: 1 });
  assert.deepEqual(engine.analyzeGame(h, { depth: 1 }), text, 'an object');
  const record = engine.analyzeGame(gameRecord(h, { seed: 14 }), { depth: 1 });
  assert.equal(record.termination, 'king-capture');
  assert.deepEqual(record.turns, text.turns, 'the same turns from a record');
  assert.deepEqual([record.white, record.black], [text.white, text.black]);
  assert.equal(text.depth, 1);
  for (const t of text.turns) assert.equal(t.valued, t.candidates);
});

test('analyzeGame: depth 1 and a time limit keep the invariants', () => {
  const { h, a } = exact[1];
  const fast = engine.analyzeGame(h, { timeMs: 0 });
  fast.turns.forEach((t, i) => {
    assert.ok(t.valued >= 1 && t.valued <= t.candidates);
    assert.ok(t.error >= 0 && t.bestEquity >= t.playedEquity);
    assert.equal(t.luck, t.equityAfterRoll - t.equityBefore);
    // The played turn is always valued at depth 2, and the depth-1 parts do not change.
    assert.equal(t.playedEquity, a.turns[i].playedEquity);
    assert.equal(t.equityBefore, a.turns[i].equityBefore);
    if (t.candidates === 1) assert.equal(t.error, 0);
  });
  const shallow = engine.analyzeGame(h, { depth: 1, bot: 'expectimax' });
  assert.equal(shallow.depth, 1);
  assert.match(shallow.evaluator, /material/i);
  for (const t of shallow.turns) assert.ok(t.error >= 0 && t.bestEquity >= t.playedEquity);
});

test('hint: the best turns of a roll and both kings in danger', () => {
  const { a } = exact[1];
  for (const t of a.turns.slice(0, 6)) {
    const rolled = `${t.fenBefore} ${letters(t.dice, t.activeColor)}`;
    const r = engine.hint(rolled, { top: 3 });
    assert.deepEqual(Object.keys(r), ['turns', 'candidates', 'valued', 'whiteKingCaptured', 'blackKingCaptured', 'evaluator', 'depth']);
    assert.equal(r.candidates, t.candidates);
    assert.equal(r.valued, t.candidates, 'exact by default');
    assert.equal(r.turns.length, Math.min(3, t.candidates));
    // Exact depth 2 on both sides: the hint's best turn is the analysis's.
    assert.deepEqual(r.turns[0].moves, t.bestMoves);
    assert.equal(r.turns[0].equity, t.bestEquity);
    assert.equal(r.turns[0].kingRisk, t.bestKingRisk);
    for (let i = 1; i < r.turns.length; i++) assert.ok(r.turns[i - 1].equity >= r.turns[i].equity, 'best first');
    for (const x of r.turns) {
      assert.deepEqual(Object.keys(x), ['moves', 'equity', 'depth', 'kingRisk']);
      assert.equal(x.depth, 2);
    }
    const k = engine.kingCaptureProbability(rolled);
    assert.equal(r.whiteKingCaptured, k.white.kingCaptureProbability);
    assert.equal(r.blackKingCaptured, k.black.kingCaptureProbability);
  }
  // Default top 5; a pass is one turn of no moves.
  const start = engine.hint('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB', { depth: 1 });
  assert.equal(start.turns.length, 5);
  assert.ok(start.turns.every((x) => x.depth === 1));
  const pass = engine.hint('4k3/8/8/8/8/8/8/4K3 w - - 0 1 RRR');
  assert.deepEqual(pass.turns.map((x) => x.moves), [[]]);
  // A king in reach: Black's king on e8 stands open to the f7 bishop's next roll.
  const open = engine.hint('rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1 PPP', { depth: 1 });
  assert.equal(open.blackKingCaptured, 91 / 216);
  assert.equal(open.whiteKingCaptured, 0);
  // Within a time limit at depth 2: at least the best depth-1 turn is searched.
  const timed = engine.hint('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB', { timeMs: 0, top: 200 });
  assert.ok(timed.valued >= 1 && timed.valued <= timed.candidates);
  assert.equal(timed.turns.filter((x) => x.depth === 2).length, timed.valued, 'the searched turns first');
});

test('a bad game throws the validator\'s message, field "game"; bad options name the option', () => {
  const { h } = exact[1];
  const bad = (mutate) => {
    const g = structuredClone(h);
    mutate(g);
    return g;
  };
  for (const [game, pattern] of [
    ['{"gameId": "x", ', /not JSON/],
    [bad((g) => { g.turns[2].moves = ['e2e5']; }), /turn 3: .*e2e5 is not a legal turn path/],
    [bad((g) => { g.turns[4].fenAfter = g.turns[3].fenAfter; }), /turn 5: fenAfter/],
    [bad((g) => { g.turns[1].dice = [1, 2]; }), /turn 2: dice \[1,2\] are not three faces/],
    [bad((g) => { g.turns[0].activeColor = 'Red'; }), /turn 1: activeColor "Red"/],
    [bad((g) => { delete g.initialDfen; }), /initialDfen/],
    [bad((g) => { g.result = -g.result; }), /result|capture/],
    [bad((g) => { g.turns.push({ ...g.turns[0], turnNumber: g.turns.length + 1 }); }), /after it ended|goes on/],
    [bad((g) => { g.initialDfen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1'; }), /initialDfen .*castling/],
    [{ ...gameRecord(h), limits: { halfmove: 100 } }, /limits\.turns is missing/],
    [{ ...gameRecord(h), termination: 'checkmate' }, /not a game record: unknown variant `checkmate`/],
    [7, /expected a game record or history/],
  ]) {
    assert.throws(() => engine.analyzeGame(game, { depth: 1 }), (e) => {
      assert.ok(e instanceof Error);
      assert.equal(e.field, 'game', e.message);
      assert.match(e.message, pattern);
      return true;
    }, String(pattern));
  }
  for (const [field, options] of [
    ['depth', { depth: 3 }],
    ['depth', { depth: 0 }],
    ['bot', { bot: 'greedy' }],
    ['timeMs', { timeMs: -1 }],
    ['onProgress', { onProgress: 5 }],
    ['options', 7],
  ]) {
    assert.throws(() => engine.analyzeGame(h, options), (e) => e.field === field && e.message.startsWith(`${field}: `), field);
  }
  // A callback that throws: its exception comes out of analyzeGame.
  const boom = new Error('boom');
  assert.throws(() => engine.analyzeGame(h, { depth: 1, onProgress: () => { throw boom; } }), (e) => e === boom);
  const rolled = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB';
  assert.throws(() => engine.hint(rolled.slice(0, -4)), (e) => e.field === 'dice');
  assert.throws(() => engine.hint(rolled, { top: 0 }), (e) => e.field === 'top');
  assert.throws(() => engine.hint(rolled, { bot: 'nope' }), (e) => e.field === 'bot' && /best, best-v1, expectimax/.test(e.message));
  assert.throws(() => engine.hint(rolled, { depth: 5 }), (e) => e.field === 'depth');
  // Still working.
  assert.equal(engine.analyzeGame(h, { depth: 1 }).turns.length, h.turns.length);
});
