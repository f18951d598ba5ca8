// The page in a real headless Chromium: served by `dicechess web`, it loads the wasm
// package, a human (this test, clicking squares) plays a few turns against a bot thinking in
// a Web Worker, and every step is checked against the package run here in Node: the board
// drawn is the DFEN's placement, the highlighted moves are the legal next micro-moves, the
// dimmed dice are the unplayable ones, the hint panel lists legal turns best first, the
// whole game replays legally; then a screenshot. Then the human resigns and analyses the
// game: the progress, the equity graph, the luck bars, the turn list and the boards of a
// turn are checked against the package's own analysis of the page's record; a second
// screenshot. Needs $CHROMIUM (default /usr/bin/chromium) and the native binary
// ($DICECHESS_BIN).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { engine, root } from './load.mjs';
import { readPng, colourStats } from './png.mjs';

const bin = process.env.DICECHESS_BIN || path.join(root, 'target', 'release', 'dicechess');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const VIEW = { width: 1100, height: 760 };
const HUMAN_TURNS = 4;
const out = path.join(root, 'web', 'test', 'out');

/** Square → piece letter of a DFEN's placement. */
function placement(dfen) {
  const m = {};
  dfen.split(' ')[0].split('/').forEach((row, i) => {
    let f = 0;
    for (const c of row) {
      if (/\d/.test(c)) f += Number(c);
      else m['abcdefgh'[f++] + (8 - i)] = c;
    }
  });
  return m;
}

/** `dicechess web --port 0`, resolved with its URL once it listens. */
function serve() {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['web', '--port', '0', '--dir', path.join(root, 'web')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (b) => {
      text += b;
      const m = text.match(/on (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`dicechess web exited with ${code}: ${text}`)));
    child.on('error', reject);
  });
}

test('play a few turns against a bot in headless Chromium, then analyse the game', { timeout: 420_000 }, async () => {
  const { child, url } = await serve();
  const profile = mkdtempSync(path.join(tmpdir(), 'dicechess-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: VIEW,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  try {
    const page = context.pages()[0] || (await context.newPage());
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    // atime=0: the page's analysis exact (depth 2, every candidate), so that Node's equals it.
    await page.goto(`${url}?seed=46&bot=expectimax&side=w&time=600&delay=0&atime=0`);
    const snap = () => page.evaluate(() => window.dicechessPage.snapshot());
    const waitPhase = (pred) =>
      page.waitForFunction(pred, null, { timeout: 60_000, polling: 50 });
    await waitPhase(() => ['human', 'over'].includes(document.body.dataset.phase));

    // Hints: the best turns of the roll in the helper worker, legal and best first.
    await page.check('#show-hint');
    const first = await snap();
    await page.waitForSelector(`#hint[data-dfen="${first.turnStart}"] tr[data-turn]`, { timeout: 60_000 });
    const hinted = await page.$$eval('#hint tr[data-turn]', (els) => els.map((e) => [e.dataset.turn, Number(e.dataset.equity)]));
    const legalFirst = new Set(engine.getLegalTurns(first.turnStart).map((t) => t.join(',')));
    assert.ok(hinted.length >= 1 && hinted.length <= 5, `${hinted.length} hinted turns`);
    for (const [turn, equity] of hinted) {
      assert.ok(legalFirst.has(turn), `hinted ${turn} legal`);
      assert.ok(equity >= 0 && equity <= 1);
    }
    const shown = await page.evaluate(() => window.dicechessPage.hint());
    assert.equal(shown.dfen, first.turnStart);
    const k = engine.kingCaptureProbability(first.turnStart);
    assert.equal(shown.result.whiteKingCaptured, k.white.kingCaptureProbability);
    assert.equal(shown.result.blackKingCaptured, k.black.kingCaptureProbability);
    assert.match(await page.textContent('#hint'), /White \d+\.\d %, Black \d+\.\d %/);

    let latency = 0;
    for (let turn = 0; turn < HUMAN_TURNS; turn++) {
      let s = await snap();
      if (s.phase === 'over') break;
      assert.equal(s.phase, 'human');
      const turns = engine.getLegalTurns(s.turnStart);
      const historyBefore = s.history.length;
      while (s.phase === 'human' && s.history.length === historyBefore) {
        // The board drawn is the position's placement.
        const drawn = await page.$$eval('[data-square]', (els) =>
          Object.fromEntries(els.filter((e) => e.dataset.piece).map((e) => [e.dataset.square, e.dataset.piece])),
        );
        assert.deepEqual(drawn, placement(s.dfen), 'board drawn = DFEN placement');
        assert.equal(await page.getAttribute('#board', 'data-dfen'), s.dfen);
        if (turns.length === 0) break; // a pass: the page ends the turn itself
        // Highlighted: exactly the legal next micro-moves of the played prefix.
        const n = s.prefix.length;
        const next = [...new Set(turns.filter((t) => t.length > n && s.prefix.every((m, i) => t[i] === m)).map((t) => t[n]))];
        assert.deepEqual(s.legalNext.slice().sort(), next.slice().sort(), 'legal next moves');
        const movable = await page.$$eval('.sq.movable', (els) => els.map((e) => e.dataset.square).sort());
        assert.deepEqual(movable, [...new Set(next.map((m) => m.slice(0, 2)))].sort(), 'movable squares');
        // Dimmed dice: in the pool but not playable after the prefix.
        const dice = await page.$$eval('.die', (els) => els.map((e) => e.dataset.state));
        const left = (s.dfen.split(' ')[6] || '').length;
        const playable = engine.getPlayableDice(s.turnStart, s.prefix).length;
        assert.equal(dice.filter((d) => d === 'spent').length, 3 - left, 'spent dice');
        assert.equal(dice.filter((d) => d === 'dim').length, left - playable, 'dimmed dice');
        // Click a piece, check its targets, click the first target.
        const plain = next.filter((m) => m.length === 4 || m[4] === 'q');
        const uci = plain[(turn * 7 + n * 3) % plain.length];
        await page.click(`[data-square="${uci.slice(0, 2)}"]`);
        const targets = await page.$$eval('.sq.target', (els) => els.map((e) => e.dataset.square).sort());
        assert.deepEqual(targets, [...new Set(next.filter((m) => m.startsWith(uci.slice(0, 2))).map((m) => m.slice(2, 4)))].sort());
        await page.click(`[data-square="${uci.slice(2, 4)}"]`);
        s = await snap();
        if (s.history.length === historyBefore) assert.equal(s.prefix.at(-1), uci);
      }
      await page.waitForFunction((k) => window.dicechessPage.snapshot().history.length > k, historyBefore);
      // The bot answers in its worker; the page keeps answering meanwhile.
      while ((await snap()).phase === 'bot') {
        const t0 = Date.now();
        await page.evaluate(() => 1);
        latency = Math.max(latency, Date.now() - t0);
        await new Promise((r) => setTimeout(r, 40));
      }
      await waitPhase(() => ['human', 'over'].includes(document.body.dataset.phase));
    }
    assert.ok(latency < 400, `the page answered within ${latency} ms while the bot thought`);

    // The whole game replays legally turn by turn, to the position on screen.
    const s = await snap();
    assert.ok(s.phase === 'over' || s.history.length >= 2 * HUMAN_TURNS, `${s.history.length} turns played`);
    assert.ok(s.history.filter((h) => h.moves.length > 0).length >= 4, 'turns with moves');
    let dfen = START;
    for (const h of s.history) {
      const rolled = `${dfen} ${h.dice}`;
      const legal = engine.getLegalTurns(rolled).map((t) => t.join(','));
      if (h.moves.length === 0) assert.deepEqual(legal, [], `pass with ${h.dice}`);
      else assert.ok(legal.includes(h.moves.join(',')), `${h.moves} legal for ${rolled}`);
      let d = rolled;
      for (const m of h.moves) {
        d = engine.applyMove(d, m.slice(0, 2), m.slice(2, 4), m.slice(4) || undefined);
        assert.equal(typeof d, 'string', `${m} of ${h.moves}`);
      }
      dfen = engine.endTurn(d);
    }
    if (s.phase === 'human') assert.equal(s.dfen.split(' ').slice(0, 6).join(' '), dfen);
    assert.deepEqual(problems, []);
    const kcp = await page.textContent('#kcp-white');
    assert.match(kcp, /^\d+\.\d % \(\d+\/216\)$/);

    mkdirSync(out, { recursive: true });
    const file = path.join(out, 'page.png');
    await page.screenshot({ path: file });
    const png = readPng(readFileSync(file));
    assert.deepEqual([png.width, png.height], [VIEW.width, VIEW.height]);
    const stats = colourStats(png);
    assert.ok(stats.colours > 50 && stats.topShare < 0.9, `not blank: ${JSON.stringify(stats)}`);

    // The human resigns (unless a king fell already) and analyses the game.
    if ((await snap()).phase !== 'over') {
      await page.click('#resign');
      await waitPhase(() => document.body.dataset.phase === 'over');
    }
    const over = await snap();
    const n = over.history.length;
    assert.ok(await page.isVisible('#analyse'), 'the Analyse game button');
    // The page's record is a valid history of the game on screen.
    assert.equal(over.document.turns.length, n);
    assert.deepEqual(over.document.turns.map((t) => t.moves), over.history.map((h) => h.moves));
    await page.click('#analyse');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.analysis), null, { timeout: 180_000, polling: 100 });
    const done = await page.evaluate(() => window.dicechessPage.analysis());
    assert.equal(done.state, 'done', done.error);
    assert.equal(done.ticks, n, 'progress once a turn');
    assert.deepEqual(done.progress, [n, n]);
    const analysis = done.result;
    assert.deepEqual(analysis, engine.analyzeGame(over.document), 'the page analysed as Node does');
    for (const t of analysis.turns) {
      assert.ok(t.error >= 0 && t.bestEquity >= t.playedEquity);
      assert.equal(t.luck, t.equityAfterRoll - t.equityBefore);
    }
    // The equity graph (n + 1 points), the luck bars, the turn list with the marked turns.
    assert.ok(await page.isVisible('#equity-graph svg#equity-svg path.curve'), 'the equity graph');
    assert.equal(Number(await page.getAttribute('#equity-svg', 'data-points')), n + 1);
    const marked = analysis.turns.filter((t) => ['doubtful', 'bad', 'veryBad'].includes(t.class));
    assert.equal(await page.locator('#equity-svg circle.mark').count(), marked.length);
    assert.equal(await page.locator('#luck-svg rect.bar').count(), n);
    assert.deepEqual(
      await page.$$eval('#analysis-turns li', (els) => els.map((e) => [Number(e.dataset.turn), e.dataset.class, e.classList.contains('marked')])),
      analysis.turns.map((t) => [t.turnNumber, t.class, marked.includes(t)]),
    );
    // A marked turn (the first turn when none is): the board after the played turn and after the best.
    const chosen = marked[0] ?? analysis.turns[0];
    await page.click(`#analysis-turns li[data-turn="${chosen.turnNumber}"]`);
    await page.waitForSelector(`#turn-detail[data-turn="${chosen.turnNumber}"]`, { state: 'visible' });
    assert.ok(await page.isVisible('#played-board'), 'a board');
    const board = (sel) => page.$$eval(`${sel} [data-square]`, (els) => [els.length, Object.fromEntries(els.filter((e) => e.dataset.piece).map((e) => [e.dataset.square, e.dataset.piece]))]);
    assert.deepEqual(await board('#played-board'), [64, placement(chosen.fenAfter)]);
    let best = `${chosen.fenBefore} ${chosen.dice.map((f) => 'PNBRQK'[f - 1]).join('')}`;
    if (chosen.activeColor === 'b') best = best.slice(0, -3) + best.slice(-3).toLowerCase();
    for (const m of chosen.bestMoves) best = engine.applyMove(best, m.slice(0, 2), m.slice(2, 4), m.slice(4) || undefined);
    assert.deepEqual(await board('#best-board'), [64, placement(engine.endTurn(best))]);
    assert.match(await page.textContent('#best-caption'), new RegExp(`^Best ${chosen.bestMoves.join(' ') || 'pass'}: `));
    assert.deepEqual(problems, []);

    const shot = path.join(out, 'analysis.png');
    await page.screenshot({ path: shot });
    const apng = readPng(readFileSync(shot));
    assert.deepEqual([apng.width, apng.height], [VIEW.width, VIEW.height]);
    const astats = colourStats(apng);
    assert.ok(astats.colours > 50 && astats.topShare < 0.9, `not blank: ${JSON.stringify(astats)}`);
  } finally {
    await context.close();
    child.kill('SIGTERM');
    rmSync(profile, { recursive: true, force: true });
  }
});
