// Round trips: the wasm package against the native CLI on the same inputs (turns, moves,
// playable dice, probes, bots, equity, error messages). The native binary is
// $DICECHESS_BIN or target/release/dicechess (.ci/test-web builds it).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { engine, root, vectors } from './load.mjs';

const bin = process.env.DICECHESS_BIN || path.join(root, 'target', 'release', 'dicechess');
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

function cli(...args) {
  return execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
}
const lines = (s) => s.split('\n').filter((l) => l !== '');

/** Rolled positions: the start, Kiwipete and the first cases of turn_paths.json. */
const ROLLED = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB',
  `${KIWIPETE} PNB`,
  `${KIWIPETE} KRN`,
  'k7/4P3/8/8/8/8/8/4K3 w - - 0 1 PPK',
  ...vectors('turn_paths.json').cases.slice(0, 12).map((c) => c.dfen),
];

test('the native binary is there', () => {
  assert.ok(existsSync(bin), `${bin} missing: build it with cargo build --release --bin dicechess`);
});

test('getLegalTurns and getLegalUciMoves equal `dicechess turns` and `moves`, in order', () => {
  for (const d of ROLLED) {
    assert.deepEqual(engine.getLegalTurns(d).map((t) => t.join(',')), lines(cli('turns', d)), d);
    assert.deepEqual(engine.getLegalUciMoves(d), lines(cli('moves', d)), d);
  }
});

test('getPlayableDice equals `dicechess playable` after each prefix of the first path', () => {
  for (const d of ROLLED) {
    if (engine.getLegalTurns(d).length === 0) {
      // A pass: not even the empty prefix starts a legal path, for either.
      assert.equal(spawnSync(bin, ['playable', d, '--prefix', '']).status, 2, d);
      assert.throws(() => engine.getPlayableDice(d, []), (e) => e.field === 'prefix', d);
      continue;
    }
    const first = engine.getLegalTurns(d)[0];
    for (let n = 0; n <= first.length; n++) {
      const prefix = first.slice(0, n);
      const want = cli('playable', d, '--prefix', prefix.join(',')).trim();
      assert.equal(engine.getPlayableDice(d, prefix) || '-', want, `${d} after ${prefix}`);
      assert.equal(engine.getPlayableDice(d, prefix.join(',')) || '-', want);
    }
  }
});

test('kingCaptureProbability equals the capture counts of `dicechess probe`', () => {
  for (const d of ROLLED) {
    const p = JSON.parse(cli('probe', d));
    const k = engine.kingCaptureProbability(d);
    for (const side of ['white', 'black']) {
      assert.equal(k[side].kingCaptureRolls, p[side].king_capture_rolls, `${d} ${side}`);
      assert.equal(k[side].kingCaptureProbability, p[side].king_capture_probability);
      assert.equal(k[side].queenCaptureRolls, p[side].queen_capture_rolls);
    }
  }
});

test('getAvailableBots is the native registry less the model bot', () => {
  const native = JSON.parse(cli('bots', '--json'));
  const wasm = engine.getAvailableBots();
  assert.deepEqual(
    wasm.map((b) => b.id),
    native.map((b) => b.id).filter((id) => id !== 'expectimax-model'),
  );
  for (const b of wasm) {
    const n = native.find((x) => x.id === b.id);
    assert.deepEqual(
      { id: b.id, name: b.name, difficulty: b.difficulty, description: b.description },
      { id: n.id, name: n.name, difficulty: n.difficulty, description: n.description },
    );
    assert.equal(b.isExperimental, false);
  }
});

test('getBestMove of every bot equals `dicechess bestmove` (untimed, one thread, same seed)', () => {
  const cases = [
    ['7k/8/8/b7/8/8/5P2/4K3 w - - 0 1 NBK', engine.getAvailableBots().map((b) => b.id)],
    [
      'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 PNB',
      ['random', 'random-king-capture', 'checkmate-aware', 'greedy', 'cautious-greedy', 'aggressive', 'expectimax'],
    ],
  ];
  for (const [d, bots] of cases) {
    for (const bot of bots) {
      for (const seed of [0, 5]) {
        const n = JSON.parse(cli('bestmove', d, '--bot', bot, '--threads', '1', '--seed', String(seed)));
        const w = engine.getBestMove(d, { algorithm: bot, seed });
        const uci = w.moves.map((m) => m.from + m.to + (m.promotion || ''));
        assert.deepEqual(uci, n.moves, `${bot} seed ${seed} on ${d}`);
        assert.equal(w.score, n.score, `${bot} score on ${d}`);
        assert.equal(w.algorithm, n.bot);
        assert.equal(w.fallback, n.rootBudget.fallback);
        assert.ok(w.timeTakenMs >= 0);
      }
    }
  }
});

test('estimateEquity equals `dicechess equity` with the same settings', () => {
  const d = 'rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1';
  for (const [rollouts, plies, seed] of [[64, 40, 1], [40, 200, 9]]) {
    const n = JSON.parse(
      cli('equity', d, '--rollouts', String(rollouts), '--max-plies', String(plies), '--seed', String(seed), '--threads', '1'),
    );
    const w = engine.estimateEquity(d, { rollouts, maxPlies: plies, seed });
    assert.equal(w.rollouts, n.rollouts);
    for (const [a, b] of [
      ['whiteWin', 'white_win'],
      ['blackWin', 'black_win'],
      ['undecided', 'undecided'],
      ['standardError', 'standard_error'],
      ['varianceReduction', 'variance_reduction'],
    ]) {
      assert.ok(Math.abs(w[a] - n[b]) <= 1e-12 * Math.max(1, Math.abs(n[b])), `${a}: ${w[a]} vs ${n[b]}`);
    }
  }
});

test('a bad DFEN gives the CLI message, naming the field', () => {
  for (const c of vectors('dfen.json').rejected.slice(0, 40)) {
    const r = spawnSync(bin, ['turns', c.dfen], { encoding: 'utf8' });
    assert.equal(r.status, 2, c.dfen);
    const want = r.stderr.trim().replace(/^error: bad DFEN: /, '');
    assert.throws(
      () => engine.getLegalTurns(c.dfen),
      (err) => err instanceof Error && err.message === want && err.field === c.error_field,
      `${JSON.stringify(c.dfen)}: ${want}`,
    );
  }
});

test('analyzeGame equals `dicechess analyze --json` on a bot game (exact depth 2)', async () => {
  const { mkdtempSync, writeFileSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { botGame } = await import('./game.mjs');
  const game = botGame(30, 'greedy', 'expectimax');
  const dir = mkdtempSync(path.join(tmpdir(), 'dicechess-analyze-'));
  try {
    const file = path.join(dir, 'game.json');
    writeFileSync(file, JSON.stringify(game));
    cli('analyze', file, '--json', path.join(dir, 'turns.jsonl'), '--threads', '2');
    const native = lines(readFileSync(path.join(dir, 'turns.jsonl'), 'utf8')).map((l) => JSON.parse(l));
    const wasm = engine.analyzeGame(game).turns;
    assert.equal(wasm.length, native.length);
    wasm.forEach((w, i) => {
      const n = native[i];
      assert.deepEqual(Object.keys(w), Object.keys(n));
      for (const [k, v] of Object.entries(n)) {
        if (typeof v === 'number') assert.ok(Math.abs(w[k] - v) <= 1e-9, `turn ${i + 1} ${k}: ${w[k]} vs ${v}`);
        else assert.deepEqual(w[k], v, `turn ${i + 1} ${k}`);
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
