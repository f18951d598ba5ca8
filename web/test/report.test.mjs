// `dicechess analyze --out report.html` in a real headless Chromium: the report of real
// self-play games (greedy against random, whose games have marked errors) is opened from
// disk with the network cut off, and the equity graph, the luck bars, the turn list and a
// board of a marked turn are checked against the `--json` records of the same run; then a
// screenshot (web/test/out/report.png). Needs $CHROMIUM (default /usr/bin/chromium) and the
// native binary ($DICECHESS_BIN).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { root } from './load.mjs';
import { readPng, colourStats } from './png.mjs';

const bin = process.env.DICECHESS_BIN || path.join(root, 'target', 'release', 'dicechess');
const out = path.join(root, 'web', 'test', 'out');

test('report.html shows the equity graph, the luck, the turns and the marked boards', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dicechess-report-'));
  const profile = mkdtempSync(path.join(tmpdir(), 'dicechess-chromium-'));
  try {
    const games = path.join(dir, 'games');
    execFileSync(bin, ['selfplay', '--games', '2', '--white', 'greedy', '--black', 'random', '--seed', '21', '--out', games], { stdio: 'ignore' });
    const report = path.join(dir, 'report.html');
    const jsonl = path.join(dir, 'turns.jsonl');
    execFileSync(bin, ['analyze', games, '--depth', '1', '--out', report, '--json', jsonl], { stdio: 'ignore' });
    const turns = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const byGame = new Map();
    for (const t of turns) byGame.set(t.gameId, [...(byGame.get(t.gameId) || []), t]);
    const marked = turns.filter((t) => ['doubtful', 'bad', 'veryBad'].includes(t.class));
    assert.ok(marked.length > 0, 'the games have marked errors');

    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      viewport: { width: 1200, height: 1400 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = context.pages()[0] || (await context.newPage());
      // Self-contained: any request but the file itself fails the test.
      const requests = [];
      await page.route('**/*', (route) => {
        const u = route.request().url();
        if (u !== pathToFileURL(report).href) requests.push(u);
        return route.continue();
      });
      await page.goto(pathToFileURL(report).href);
      assert.deepEqual(requests, [], 'the report fetches nothing');
      const sections = await page.$$eval('section.game', (els) => els.length);
      assert.equal(sections, byGame.size);
      // One graph point per turn, and a dot per marked turn, in every game.
      const graphs = await page.$$eval('svg.equity-graph', (els) =>
        els.map((s) => ({
          points: s.querySelector('polyline').getAttribute('points').trim().split(/\s+/).length,
          dots: s.querySelectorAll('circle').length,
          visible: s.getBoundingClientRect().width > 0,
        })),
      );
      [...byGame.values()].forEach((ts, i) => {
        assert.equal(graphs[i].points, ts.length);
        assert.equal(graphs[i].dots, ts.filter((t) => ['doubtful', 'bad', 'veryBad'].includes(t.class)).length);
        assert.ok(graphs[i].visible);
      });
      const bars = await page.$$eval('svg.luck rect', (els) => els.length);
      assert.equal(bars, turns.length);
      const rows = await page.$$eval('table.turns tr[class]', (els) => els.map((e) => e.className));
      assert.deepEqual(rows, turns.map((t) => t.class));
      // A board per marked turn, with its pieces and the played and best arrows.
      const boards = await page.$$eval('figure.marked svg.board', (els) =>
        els.map((s) => ({ pieces: s.querySelectorAll('text').length, arrows: s.querySelectorAll('line').length })),
      );
      assert.equal(boards.length, marked.length);
      marked.forEach((t, i) => {
        const pieces = t.fenBefore.split(' ')[0].replace(/[\d/]/g, '').length;
        assert.equal(boards[i].pieces, pieces, `turn ${t.turnNumber}'s pieces`);
        assert.equal(boards[i].arrows, t.moves.length + t.bestMoves.length);
      });
      mkdirSync(out, { recursive: true });
      const shot = path.join(out, 'report.png');
      await page.screenshot({ path: shot, fullPage: true });
      // The screenshot is a drawn page (the graph, the bars, the boards), not a blank one.
      const stats = colourStats(readPng(readFileSync(shot)));
      assert.ok(stats.colours > 50 && stats.topShare < 0.95, `a drawn page: ${JSON.stringify(stats)}`);
    } finally {
      await context.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
});
