// The wasm package against the conformance vectors of tests/data (tests/data/README.md), the
// same cases tests/vectors.rs and tests/reference_vectors.rs check natively.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { engine, vectors } from './load.mjs';

test('dfen.json: rejected inputs throw an Error naming the field (canonicalDfen, validateDfen) or get the JVM build\'s answers; accepted ones write back canonically', () => {
  const v = vectors('dfen.json');
  assert.ok(v.rejected.length >= 30 && v.accepted.length >= 9);
  for (const c of v.rejected) {
    assert.throws(
      () => engine.canonicalDfen(c.dfen),
      (err) =>
        err instanceof Error &&
        err.field === c.error_field &&
        err.message.startsWith(`${c.error_field}:`),
      `rejected ${JSON.stringify(c.dfen)} naming ${c.error_field}`,
    );
    const named = (err) => err instanceof Error && err.field === c.error_field && err.message.startsWith(`${c.error_field}:`);
    assert.throws(() => engine.validateDfen(c.dfen), named, `validateDfen ${JSON.stringify(c.dfen)}`);
    // The JVM build's calls answer without an error.
    const d = JSON.stringify(c.dfen);
    assert.deepEqual(engine.getLegalUciMoves(c.dfen), [], d);
    assert.deepEqual(engine.generateMoves(c.dfen), [], d);
    assert.deepEqual(engine.getLegalTurnTree(c.dfen), {}, d);
    assert.equal(engine.applyMove(c.dfen, 'e2', 'e4'), undefined, d);
    assert.equal(engine.endTurn(c.dfen), undefined, d);
    assert.equal(engine.canonicalKey(c.dfen), undefined, d);
    assert.equal(engine.getPieceTypeAt(c.dfen, 'e1'), undefined, d);
    assert.equal(engine.perft(c.dfen, 1), 0, d);
    assert.deepEqual(engine.getBestMove(c.dfen).moves, [], d);
    assert.equal(engine.shouldBotAcceptDouble(c.dfen, 2), false, d);
  }
  for (const c of v.accepted) {
    assert.equal(engine.validateDfen(c.dfen), true, c.dfen);
    assert.equal(engine.canonicalDfen(c.dfen), c.canonical, c.dfen);
    assert.equal(engine.canonicalDfen(c.canonical), c.canonical, 'canonical is a fixed point');
  }
});

test('first_moves.json: getLegalUciMoves', () => {
  const v = vectors('first_moves.json');
  assert.ok(v.cases.length >= 40);
  for (const c of v.cases) {
    assert.deepEqual(engine.getLegalUciMoves(c.dfen).slice().sort(), c.first_moves, c.dfen);
  }
});

test('turn_paths.json: getLegalTurns counts, SHA-256 and lists; countLegalTurns; ends by applyMove and endTurn', () => {
  const v = vectors('turn_paths.json');
  assert.ok(v.cases.length >= 100);
  let listed = 0;
  for (const c of v.cases) {
    const turns = engine.getLegalTurns(c.dfen);
    assert.equal(turns.length, c.paths, `paths of ${c.dfen}`);
    assert.equal(engine.countLegalTurns(c.dfen), c.paths, `count of ${c.dfen}`);
    const lines = turns.map((t) => t.join(',')).sort();
    const sha = createHash('sha256').update(lines.join('\n')).digest('hex');
    assert.equal(sha, c.sha256, `sha256 of ${c.dfen}`);
    if (c.legal) {
      listed += 1;
      assert.deepEqual(lines, c.legal.slice().sort(), `listed paths of ${c.dfen}`);
      // Playing every path one micro-move at a time through the JS API reaches the
      // vectors' distinct end positions.
      const ends = new Set();
      for (const t of turns) {
        let d = c.dfen;
        for (const m of t) {
          const next = engine.applyMove(d, m.slice(0, 2), m.slice(2, 4), m.slice(4) || undefined);
          assert.equal(typeof next, 'string', `${m} of ${t.join(',')} from ${c.dfen}`);
          d = next;
        }
        assert.deepEqual(engine.getLegalUciMoves(d), [], `${t.join(',')} completes the turn`);
        ends.add(engine.endTurn(d));
      }
      assert.equal(ends.size, c.ends, `distinct ends of ${c.dfen}`);
    }
  }
  assert.ok(listed >= 20, `${listed} cases list their paths`);
});

test('perft_single_die.json: perftSingleDie', () => {
  const v = vectors('perft_single_die.json');
  assert.ok(v.cases.length >= 14);
  for (const c of v.cases) {
    assert.equal(engine.perftSingleDie(c.fen, c.die, c.depth), c.nodes, `${c.fen} die ${c.die} depth ${c.depth}`);
  }
});

test('king_capture.json and king_capture_random.json: kingCaptureProbability', () => {
  const side = (d) => (d === 'w' ? 'white' : 'black');
  for (const name of ['king_capture.json', 'king_capture_random.json']) {
    const v = vectors(name);
    assert.ok(v.cases.length >= 14, name);
    for (const c of v.cases) {
      const k = engine.kingCaptureProbability(c.fen)[side(c.defender)];
      assert.equal(k.kingCaptureRolls, c.winning_rolls, `${name}: ${c.fen} defender ${c.defender}`);
      assert.equal(k.kingCaptureProbability, c.winning_rolls / 216);
      if (c.queen_rolls !== undefined) {
        assert.equal(k.queenCaptureRolls, c.queen_rolls, `${name}: queen of ${c.fen}`);
      }
    }
  }
});

test('position_keys.json: positionKeys, and canonicalKey idempotent', () => {
  const v = vectors('position_keys.json');
  assert.ok(v.cases.length >= 600);
  for (const c of v.cases) {
    assert.deepEqual(
      engine.positionKeys(c.dfen),
      {
        zobrist: c.zobrist,
        zobristHex: c.zobrist_hex,
        normalizedFen: c.normalized_fen,
        diceKey: c.dice_key,
      },
      c.dfen,
    );
    const key = engine.canonicalKey(c.dfen);
    assert.equal(engine.canonicalKey(key), key, `${c.dfen}: the symmetry key is idempotent`);
    assert.equal(key.split(' ')[1], 'w', `${c.dfen}: the representative has White to move`);
  }
});
