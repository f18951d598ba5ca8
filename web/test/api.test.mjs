// The JS API's shapes and its errors: every call that takes a DFEN throws an Error naming the
// field, bad arguments name the argument, and the instance keeps working afterwards.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as esm from '../pkg/index.mjs';
import { engine } from './load.mjs';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const PROMO = 'k7/4P3/8/8/8/8/8/4K3 w - - 0 1 P';
const BAD = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1 PNB';

const names = [
  'getAvailableBots', 'getLegalUciMoves', 'getLegalTurns', 'getLegalTurnTree', 'getBestMove', 'applyMove', 'endTurn',
  'getPlayableDice', 'estimateEquity', 'kingCaptureProbability', 'canonicalKey', 'analyzeGame',
  'hint',
];

test('require and import give the same functions', () => {
  for (const n of names) {
    assert.equal(typeof engine[n], 'function', n);
    assert.equal(esm[n], engine[n], n);
  }
});

test('applyMove plays a micro-move and spends its die; endTurn passes the turn', () => {
  assert.deepEqual(engine.getLegalUciMoves(PROMO).sort(), ['e7e8b', 'e7e8n', 'e7e8q', 'e7e8r']);
  const after = engine.applyMove(PROMO, 'e7', 'e8', 'q');
  assert.equal(after, 'k3Q3/8/8/8/8/8/8/4K3 w - - 0 1');
  assert.equal(engine.applyMove(PROMO, 'e7', 'e8', 'Q'), after, 'either case');
  assert.deepEqual(engine.getLegalUciMoves(after), [], 'no dice left');
  assert.equal(engine.endTurn(after), 'k3Q3/8/8/8/8/8/8/4K3 b - - 0 1');
  assert.equal(engine.applyMove(PROMO, 'e7', 'e8'), after, 'no piece: a queen, as the JVM build matches');
  assert.equal(engine.applyMove(PROMO, 'e1', 'e2'), undefined, 'no king die');
  assert.equal(engine.applyMove(`${START} PNB`, 'e2', 'e5'), undefined, 'not a move');
  const castled = engine.applyMove('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 RKP', 'e1', 'g1');
  assert.equal(castled, 'r3k2r/8/8/8/8/8/8/R4RK1 w kq - 1 1 P', 'castling spends K and R');
  const capture = engine.applyMove('4k3/8/8/8/8/8/8/4RK2 w - - 0 1 RNB', 'e1', 'e8');
  assert.equal(capture, '4R3/8/8/8/8/8/8/5K2 w - - 0 1', 'a king capture voids the dice left');
});

test('the turn of a roll: getLegalTurns, getPlayableDice', () => {
  const d = `${START} PNN`;
  const turns = engine.getLegalTurns(d);
  assert.ok(turns.length > 0 && turns.every((t) => t.length === 3));
  assert.equal(engine.getPlayableDice(d, []), 'PNN');
  assert.equal(engine.getPlayableDice(d, ['g1f3']), 'PN');
  assert.equal(engine.getPlayableDice(d, turns[0]), '');
  assert.throws(() => engine.getPlayableDice(d, ['e2e5']), (e) => e.field === 'prefix');
  assert.throws(() => engine.getPlayableDice(d, 'a7a6'), (e) => e.field === 'prefix');
  assert.throws(() => engine.getPlayableDice(d, [3]), (e) => e.field === 'prefix');
  assert.deepEqual(engine.getLegalTurns(START), [], 'no dice: no turn');
});

test('getBestMove: the JVM shape, a legal turn', () => {
  const d = `${START} PNB`;
  const legal = new Set(engine.getLegalTurns(d).map((t) => t.join(',')));
  for (const algorithm of [undefined, 'greedy', 'expectimax', 'monte-carlo']) {
    const r = engine.getBestMove(d, { algorithm, timeBudgetMs: 300 });
    assert.deepEqual(Object.keys(r).slice(0, 3), ['moves', 'score', 'timeTakenMs']);
    assert.ok(legal.has(r.moves.map((m) => m.from + m.to + (m.promotion || '')).join(',')), algorithm);
    for (const m of r.moves) assert.deepEqual(Object.keys(m), ['from', 'to']);
    assert.equal(typeof r.score, 'number');
    assert.ok(r.timeTakenMs >= 0 && r.timeTakenMs < 5000, `${algorithm} took ${r.timeTakenMs} ms`);
    assert.equal(r.algorithm, algorithm ?? 'greedy');
  }
  const promo = engine.getBestMove(PROMO);
  assert.equal(promo.moves.length, 1);
  assert.ok(['q', 'r', 'b', 'n'].includes(promo.moves[0].promotion));
  assert.deepEqual(engine.getBestMove('4k3/8/8/8/8/8/8/4K3 w - - 0 1 R').moves, [], 'a pass');
  assert.equal(engine.getBestMove(d, { algorithm: 'expectimax-model' }).algorithm, 'greedy', 'needs a model: the default');
  assert.throws(() => engine.getBestMove(d, { seed: -1 }), (e) => e.field === 'seed');
});

test('estimateEquity: shape, determinism, options checked', () => {
  const d = 'rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1';
  const a = engine.estimateEquity(d, { rollouts: 32, maxPlies: 30, seed: 4 });
  assert.deepEqual(Object.keys(a), ['whiteWin', 'blackWin', 'undecided', 'rollouts', 'standardError', 'varianceReductionVsVanilla', 'varianceReduction']);
  assert.equal(a.varianceReductionVsVanilla, a.varianceReduction);
  assert.equal(a.rollouts, 32);
  assert.ok(Math.abs(a.whiteWin + a.blackWin + a.undecided - 1) < 1e-9);
  assert.deepEqual(engine.estimateEquity(d, { rollouts: 32, maxPlies: 30, seed: 4 }), a);
  assert.throws(() => engine.estimateEquity(d, { rollouts: 1.5 }), (e) => e.field === 'rollouts');
  assert.throws(() => engine.estimateEquity(d, { seed: -2 }), (e) => e.field === 'seed');
  assert.throws(() => engine.estimateEquity(d, { rollouts: 1_000_001 }), (e) => e.field === 'rollouts');
});

test('every DFEN argument: a bad one throws an Error naming the field, and the instance survives', () => {
  const calls = [
    () => engine.getLegalTurns(BAD),
    () => engine.countLegalTurns(BAD),
    () => engine.getPlayableDice(BAD, []),
    () => engine.kingCaptureProbability(BAD),
    () => engine.canonicalDfen(BAD),
    () => engine.positionKeys(BAD),
    () => engine.hint(BAD, { depth: 1 }),
  ];
  for (const call of calls) {
    assert.throws(call, (e) => e instanceof Error && e.field === 'castling' && e.message.startsWith('castling: '), String(call));
    assert.equal(engine.getLegalTurns(`${START} P`).length, 16, 'still working');
  }
  for (const [arg, call] of [
    ['die', () => engine.perftSingleDie(START, 7, 1)],
    ['depth', () => engine.perftSingleDie(START, 1, -1)],
  ]) {
    assert.throws(call, (e) => e instanceof Error && e.field === arg && e.message.startsWith(`${arg}: `), arg);
  }
  assert.throws(() => engine.getLegalTurns('\u0000\uffff'), (e) => e.field === 'fields');
  assert.throws(() => engine.getLegalTurns(`${START} PNBQ`), (e) => e.field === 'dice');
});

test('kingCaptureProbability', () => {
  const k = engine.kingCaptureProbability('rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1');
  assert.equal(k.black.kingCaptureRolls, 91, 'any bishop die takes e8');
  assert.equal(k.white.kingCaptureRolls, 0);
});

test('installed as a package: require and import of "dicechess-web" resolve through its exports', async () => {
  const { mkdtempSync, mkdirSync, symlinkSync, rmSync } = await import('node:fs');
  const { execFileSync } = await import('node:child_process');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { root } = await import('./load.mjs');
  const dir = mkdtempSync(path.join(tmpdir(), 'dicechess-pkg-'));
  try {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(path.join(root, 'web', 'pkg'), path.join(dir, 'node_modules', 'dicechess-web'));
    const probe = "getLegalUciMoves('k7/4P3/8/8/8/8/8/4K3 w - - 0 1 P').sort().join()";
    const cjs = execFileSync(process.execPath, ['-e', `console.log(require('dicechess-web').${probe})`], { cwd: dir, encoding: 'utf8' });
    const mjs = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `import * as dc from 'dicechess-web'; console.log(dc.${probe})`],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(cjs.trim(), 'e7e8b,e7e8n,e7e8q,e7e8r');
    assert.equal(mjs.trim(), 'e7e8b,e7e8n,e7e8q,e7e8r');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('getLegalTurnTree: the server\'s move tree, children in UCI order, {} where the JVM build answers {}', () => {
  const kiwi = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 PNB';
  const tree = engine.getLegalTurnTree(kiwi);
  const leaves = [];
  const walk = (node, prefix) => {
    const keys = Object.keys(node);
    assert.deepEqual(keys, [...keys].sort(), `children of ${prefix.join(',')} in UCI order`);
    if (keys.length === 0) leaves.push(prefix.join(','));
    for (const k of keys) walk(node[k], [...prefix, k]);
  };
  walk(tree, []);
  const turns = engine.getLegalTurns(kiwi).map((t) => t.join(','));
  assert.deepEqual(leaves.sort(), turns.sort(), 'a leaf per legal turn');
  assert.deepEqual(engine.getLegalTurnTree(START), {}, 'no dice');
  assert.deepEqual(engine.getLegalTurnTree(BAD), {}, 'an unparsable DFEN: {} (the JVM build does not throw)');
  assert.deepEqual(engine.getLegalTurnTree('4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPP'), {}, 'a pass');
});
