// The package as a user gets it: `npm pack` of web/pkg, installed (offline: it has no
// dependencies) into an empty project, then used through its entries `.` and `./rules` from
// Node with `require` (CommonJS) and `import` (ES modules), under the JVM build's name
// `@fortemate/dicechess-engine` (an npm alias of the same tarball: the drop-in), and from a
// page without a bundler in headless Chromium, importing the installed files directly and
// through an import map. The answers are checked by web/test/pack-checks.mjs in every case.
// Needs npm, $CHROMIUM (default /usr/bin/chromium) and the native binary ($DICECHESS_BIN),
// whose `dicechess web` serves the project to the page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root } from './load.mjs';

const bin = process.env.DICECHESS_BIN || path.join(root, 'target', 'release', 'dicechess');
const pkg = path.join(root, 'web', 'pkg');
const manifest = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8'));
const NAME = manifest.name;
const ALIAS = '@fortemate/dicechess-engine';

const work = mkdtempSync(path.join(tmpdir(), 'dicechess-pack-'));
const project = path.join(work, 'project');
test.after(() => rmSync(work, { recursive: true, force: true }));

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack: the files, the version of the crate, the entries', () => {
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], pkg));
  const files = packed.files.map((f) => f.path).sort();
  for (const f of [
    'package.json', 'index.mjs', 'rules.mjs',
    'node/dicechess_web.js', 'node/dicechess_web.d.ts', 'node/dicechess_web_bg.wasm',
    'web/dicechess_web.js', 'web/dicechess_web.d.ts', 'web/dicechess_web_bg.wasm', 'web/index.js', 'web/index.d.ts',
    'rules/node/dicechess_web_rules.js', 'rules/node/dicechess_web_rules.d.ts', 'rules/node/dicechess_web_rules_bg.wasm',
    'rules/web/dicechess_web_rules.js', 'rules/web/dicechess_web_rules_bg.wasm', 'rules/web/index.js', 'rules/web/index.d.ts',
  ]) {
    assert.ok(files.includes(f), `${f} packed`);
  }
  const crate = readFileSync(path.join(root, 'web', 'crate', 'Cargo.toml'), 'utf8').match(/^version = "(.*)"$/m)[1];
  assert.equal(packed.version, crate, 'the version of web/crate');
  assert.equal(packed.filename, `${NAME}-${crate}.tgz`);
  // Every path package.json names is packed.
  const named = [];
  const walk = (v) => (typeof v === 'string' ? named.push(v.replace(/^\.\//, '')) : Object.values(v).forEach(walk));
  walk(manifest.exports);
  walk({ main: manifest.main, types: manifest.types, browser: manifest.browser });
  for (const f of named) assert.ok(files.includes(f), `${f} (named in package.json) packed`);
  // Each DiceChess object lists every function its build binds.
  for (const [entry, build] of [['index.mjs', 'node/dicechess_web.js'], ['rules.mjs', 'rules/node/dicechess_web_rules.js']]) {
    const listed = readFileSync(path.join(pkg, entry), 'utf8').match(/^export const \{\n([\s\S]*?)\n\} = engine;$/m)[1]
      .split('\n').map((l) => l.trim().replace(/,$/, ''));
    const bound = readFileSync(path.join(pkg, build), 'utf8').match(/^exports\.\w+ = /gm)
      .map((l) => l.slice(8, -3)).filter((n) => !['DiceChess', 'EngineFacade'].includes(n));
    assert.deepEqual(listed.sort(), bound.sort(), `${entry} names every export of ${build}`);
  }
  writeFileSync(path.join(work, 'tarball'), packed.filename);
});

test('npm install of the tarball into an empty project, offline', () => {
  const tgz = path.join(work, readFileSync(path.join(work, 'tarball'), 'utf8'));
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(path.join(project, 'package.json'), '{ "name": "empty", "private": true }\n');
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', tgz, `${ALIAS}@file:${tgz}`], project);
  const installed = JSON.parse(readFileSync(path.join(project, 'node_modules', NAME, 'package.json'), 'utf8'));
  assert.equal(installed.version, manifest.version);
  copyFileSync(path.join(root, 'web', 'test', 'pack-checks.mjs'), path.join(project, 'pack-checks.mjs'));
});

/** Run `node file` in the project and parse the JSON it prints. */
function node(file, text) {
  writeFileSync(path.join(project, file), text);
  return JSON.parse(run(process.execPath, [file], project));
}

test('Node, CommonJS: require(name) and require(name/rules), also under the JVM build\'s name', () => {
  for (const name of [NAME, ALIAS]) {
    const r = node('check.cjs', `
      const full = require('${name}');
      const rules = require('${name}/rules');
      if (full !== require('${name}/node')) throw new Error('the node entry');
      import('./pack-checks.mjs').then((c) => console.log(JSON.stringify(c.check(full, rules))));
    `);
    assert.equal(r.turn.split(',').length, 3, name);
    assert.ok(r.bots >= 6, name);
  }
});

test('Node, ES modules: import from name and name/rules, also under the JVM build\'s name', () => {
  for (const name of [NAME, ALIAS]) {
    const r = node('check.mjs', `
      import * as full from '${name}';
      import * as rules from '${name}/rules';
      import { DiceChess } from '${name}';
      import { DiceChess as RulesDiceChess } from '${name}/rules';
      import { check } from './pack-checks.mjs';
      if (DiceChess !== full.DiceChess || RulesDiceChess !== rules.DiceChess) throw new Error('named imports');
      console.log(JSON.stringify(check(full, rules)));
    `);
    assert.equal(r.turn.split(',').length, 3, name);
  }
});

/** `dicechess web --port 0 --dir DIR`, resolved with its URL once it listens. */
function serve(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['web', '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
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

test('a page without a bundler: the installed browser entries, by path and by an import map', { timeout: 120_000 }, async () => {
  const modules = `node_modules/${NAME}`;
  const page = (head, full, rules) => `<!doctype html><meta charset="utf-8"><title>pack</title><link rel="icon" href="data:,">${head}
<script type="module">
  import * as full from '${full}';
  import * as rules from '${rules}';
  import { check } from './pack-checks.mjs';
  try { window.result = { ok: check(full, rules) }; } catch (e) { window.result = { error: String(e && e.stack || e) }; }
</script>`;
  // `dicechess web` serves a folder with an index.html.
  writeFileSync(path.join(project, 'index.html'), page('', `./${modules}/web/index.js`, `./${modules}/rules/web/index.js`));
  // The import map maps the package's names to its "browser" condition's files.
  const browser = (entry) => manifest.exports[entry].browser.default.replace(/^\.\//, `./${modules}/`);
  const map = { imports: { [NAME]: browser('.'), [`${NAME}/rules`]: browser('./rules') } };
  writeFileSync(path.join(project, 'mapped.html'),
    page(`<script type="importmap">${JSON.stringify(map)}</script>`, NAME, `${NAME}/rules`));

  const { child, url } = await serve(project);
  const profile = mkdtempSync(path.join(work, 'chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  try {
    const tab = context.pages()[0] || (await context.newPage());
    const problems = [];
    tab.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    tab.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    for (const file of ['index.html', 'mapped.html']) {
      await tab.goto(`${url}${file}`);
      await tab.waitForFunction(() => window.result, null, { timeout: 60_000, polling: 50 });
      const result = await tab.evaluate(() => window.result);
      assert.equal(result.error, undefined, `${file}: ${result.error}`);
      assert.equal(result.ok.turn.split(',').length, 3, file);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    child.kill();
  }
});
