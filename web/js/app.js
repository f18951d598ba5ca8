// The page: a game against a bot, then its analysis. The engine (web/pkg, WebAssembly)
// answers every rules question on this thread — they take milliseconds — and the long work
// runs in Web Workers, so the page never freezes: the bot thinks in one, the hints and the
// game analysis run in another (a request there never delays the bot).
import init, * as engine from '../pkg/web/dicechess_web.js';
import { pieces, sideToMove, diceField, withDice, winner } from './position.js';
import { generator, roll, dieStates, face } from './dice.js';
import { START, gameHistory, equityCurve, whiteView } from './record.js';
// Pieces use the filled glyphs for both colours (the colour comes from the CSS class), so a
// black rook and a white rook differ by fill, not by a thin outline; the dice keep the outlines.
const PIECE_GLYPHS = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟\uFE0E' };
const GLYPHS = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙' };
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const SEED = Number(params.get('seed') ?? Math.floor(Math.random() * 2 ** 31));
// The analysis: the `best` bot's leaf, depth 2, at most this long a turn (`?atime=` ms; 0: exact).
const ANALYSIS_TIME_MS = Number(params.get('atime') ?? 1000);
const HINT_TIME_MS = 1000;
const HINT_TOP = 5;
const CLASS_MARKS = { doubtful: '?!', bad: '?', veryBad: '??' };
// The analysis's class names (JSON) in words.
const WORDS = { veryBad: 'very bad', veryLucky: 'very lucky', veryUnlucky: 'very unlucky' };
const words = (name) => WORDS[name] ?? name;
const pct = (p) => `${(100 * p).toFixed(1)} %`;
const signedPct = (p) => `${p >= 0 ? '+' : '−'}${(100 * Math.abs(p)).toFixed(1)} %`;

const game = {
  dfen: START, // the position now (mid-turn: the dice left in its seventh field)
  turnStart: null, // the DFEN with the roll, at the start of this turn
  rolled: '', // this turn's dice letters
  turns: [], // the legal turn paths of the roll (arrays of UCI)
  prefix: [], // the micro-moves played so far this turn
  phase: 'loading', // human | bot | over
  human: 'w',
  bot: '', // the bot's id at the start of the game
  selected: null,
  last: [], // squares of the last micro-move
  history: [], // { side, dice, moves, fenAfter }: the record analyzeGame reads (record.js)
  number: 0, // games started on this page
  winner: null, // "w" or "b" once decided
  termination: null, // king_captured | resign
  random: generator(SEED),
  request: 0,
};
// The analysis of the game that ended (or the one running): state none | running | done | failed.
const analysis = { state: 'none', result: null, progress: [0, 0], ticks: 0, selected: null, error: null };
let worker = null; // the bot's
let helper = null; // hints and analyses: terminated and made anew to cancel one
const pending = new Map(); // helper request id → { resolve, reject, progress }
let helperId = 0;

function setPhase(phase, message) {
  game.phase = phase;
  document.body.dataset.phase = phase;
  if (message !== undefined) $('status').textContent = message;
}

/** The distinct next micro-moves of the legal turns that start with the played prefix. */
function legalNext() {
  const n = game.prefix.length;
  const next = new Set();
  for (const t of game.turns) {
    if (t.length > n && game.prefix.every((m, i) => t[i] === m)) next.add(t[n]);
  }
  return [...next];
}

/** Whether the prefix is a whole legal turn (no legal turn is a prefix of another). */
function turnComplete() {
  const p = game.prefix;
  return game.turns.some((t) => t.length === p.length && t.every((m, i) => m === p[i]));
}

/**
 * Draw `dfen`'s pieces into the board element `board` (White at the bottom unless `flip`);
 * `decorate(square element, name)` adds the classes and listeners of a square.
 */
function drawBoard(board, dfen, flip, decorate) {
  board.textContent = '';
  const at = pieces(dfen);
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const file = flip ? 7 - f : f;
      const rank = flip ? r + 1 : 8 - r;
      const name = 'abcdefgh'[file] + rank;
      const sq = document.createElement('div');
      sq.className = `sq ${(file + rank) % 2 === 0 ? 'light' : 'dark'}`;
      sq.dataset.square = name;
      const p = at.get(name);
      if (p) {
        const span = document.createElement('span');
        const white = p === p.toUpperCase();
        span.className = `piece ${white ? 'w' : 'b'}`;
        span.textContent = PIECE_GLYPHS[p.toUpperCase()];
        sq.dataset.piece = p;
        sq.appendChild(span);
      }
      decorate(sq, name);
      board.appendChild(sq);
    }
  }
  board.dataset.dfen = dfen;
}

function renderBoard() {
  const next = game.phase === 'human' ? legalNext() : [];
  const from = new Set(next.map((m) => m.slice(0, 2)));
  const targets = new Set(
    next.filter((m) => m.slice(0, 2) === game.selected).map((m) => m.slice(2, 4)),
  );
  drawBoard($('board'), game.dfen, game.human === 'b', (sq, name) => {
    if (from.has(name)) sq.classList.add('movable');
    if (name === game.selected) sq.classList.add('selected');
    if (targets.has(name)) sq.classList.add('target');
    if (game.last.includes(name)) sq.classList.add('last');
    sq.addEventListener('click', () => onSquare(name));
  });
}

function renderDice() {
  const box = $('dice');
  box.textContent = '';
  const left = diceField(game.dfen);
  let playable = left;
  if (game.phase === 'human' && game.turnStart && game.turns.length === 0) {
    playable = '';
  } else if (game.phase === 'human' && game.turnStart) {
    playable = engine.getPlayableDice(game.turnStart, game.prefix);
  }
  for (const d of dieStates(game.rolled, left, playable)) {
    const el = document.createElement('div');
    el.className = `die ${d.state}`;
    el.dataset.state = d.state;
    el.dataset.letter = d.letter;
    el.innerHTML = `${GLYPHS[d.letter.toUpperCase()]}<small>${face(d.letter)}</small>`;
    box.appendChild(el);
  }
}

function renderProbabilities() {
  const k = engine.kingCaptureProbability(game.dfen);
  const show = (d) =>
    `${(100 * d.kingCaptureProbability).toFixed(1)} % (${d.kingCaptureRolls}/216)`;
  $('kcp-white').textContent = show(k.white);
  $('kcp-black').textContent = show(k.black);
}

function renderHistory() {
  const list = $('history');
  list.textContent = '';
  for (const h of game.history) {
    const li = document.createElement('li');
    li.textContent = `${h.side === 'w' ? 'White' : 'Black'} ${h.dice}: ${h.moves.join(' ') || 'pass'}`;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

function renderButtons() {
  $('resign').disabled = !['human', 'bot'].includes(game.phase);
  $('analyse').disabled = !(game.phase === 'over' && game.winner && game.history.length > 0);
}

function render() {
  renderBoard();
  renderDice();
  renderProbabilities();
  renderHistory();
  renderButtons();
}

function newGame() {
  game.request += 1; // a bot answer still on its way is for the old game: ignore it
  cancelHelper(); // and so is a hint or an analysis
  closeAnalysis();
  game.human = $('side').value;
  game.bot = $('bot').value;
  game.dfen = START;
  game.history = [];
  game.last = [];
  game.number += 1;
  game.winner = null;
  game.termination = null;
  analysis.state = 'none';
  analysis.result = null;
  startTurn();
}

/** The turn just finished (the DFEN after its last micro-move) joins the record. */
function recordTurn() {
  game.history.push({
    side: sideToMove(game.dfen),
    dice: game.rolled,
    moves: game.prefix.slice(),
    fenAfter: engine.endTurn(game.dfen),
  });
}

/** The game as played, in the play server's history shape (analyzeGame reads it). */
function gameDocument() {
  const bot = { name: game.bot, kind: 'bot' };
  const you = { name: 'You', kind: 'human' };
  return gameHistory({
    gameId: `page-${SEED}-${game.number}`,
    turns: game.history,
    winner: game.winner,
    termination: game.termination,
    white: game.human === 'w' ? you : bot,
    black: game.human === 'w' ? bot : you,
  });
}

function gameOver(winnerSide, termination, message) {
  game.winner = winnerSide;
  game.termination = termination;
  hintPending = null;
  setPhase('over', message);
  render();
  renderHint(null);
}

function resign() {
  if (!['human', 'bot'].includes(game.phase)) return;
  game.request += 1; // the bot's answer, if any, is no longer wanted
  const bot = game.human === 'w' ? 'b' : 'w';
  gameOver(bot, 'resign', `You resign: ${bot === 'w' ? 'White' : 'Black'} wins. Analyse the game, or a new one?`);
}

function startTurn() {
  const side = sideToMove(game.dfen);
  game.rolled = roll(game.random, side);
  game.turnStart = withDice(game.dfen, game.rolled);
  game.dfen = game.turnStart;
  game.prefix = [];
  game.selected = null;
  game.turns = engine.getLegalTurns(game.turnStart);
  requestHint();
  const who = side === 'w' ? 'White' : 'Black';
  if (side === game.human) {
    if (game.turns.length === 0) {
      setPhase('human', `${who} rolled ${game.rolled}: no legal turn, pass.`);
      render();
      const number = game.number;
      setTimeout(() => number === game.number && finishTurn(), 600);
      return;
    }
    setPhase('human', `Your turn (${who}): rolled ${game.rolled}. Click a piece, then its target.`);
    render();
  } else {
    setPhase('bot', `${$('bot').value} is thinking (${who}, rolled ${game.rolled})…`);
    render();
    const id = ++game.request;
    worker.postMessage({
      id,
      dfen: game.turnStart,
      algorithm: $('bot').value,
      timeBudgetMs: Number($('time').value),
      seed: id,
    });
  }
}

function finishTurn() {
  if (game.phase === 'over') return; // resigned meanwhile
  recordTurn();
  game.dfen = engine.endTurn(game.dfen);
  game.rolled = '';
  game.turnStart = null;
  startTurn();
}

/** Play one micro-move (UCI) of the current turn; false if the engine refuses it. */
function play(uci) {
  const next = engine.applyMove(game.dfen, uci.slice(0, 2), uci.slice(2, 4), uci.slice(4) || undefined);
  if (next === undefined) return false;
  game.dfen = next;
  game.prefix.push(uci);
  game.last = [uci.slice(0, 2), uci.slice(2, 4)];
  game.selected = null;
  const won = winner(game.dfen);
  if (won) {
    recordTurn();
    gameOver(won, 'king_captured', `${won === 'w' ? 'White' : 'Black'} captures the king and wins. Analyse the game, or a new one?`);
    return true;
  }
  return true;
}

function onSquare(name) {
  if (game.phase !== 'human') return;
  const next = legalNext();
  if (game.selected) {
    const moves = next.filter((m) => m.slice(0, 2) === game.selected && m.slice(2, 4) === name);
    if (moves.length > 0) {
      const promo = $('promotion').value;
      const uci = moves.find((m) => m.length === 5 && m[4] === promo) || moves[0];
      play(uci);
      if (game.phase === 'over') return;
      if (turnComplete()) {
        finishTurn();
        return;
      }
      setPhase('human', `Your turn: ${game.prefix.join(' ')} played; dice left ${diceField(game.dfen) || 'none'}.`);
      render();
      return;
    }
  }
  game.selected = next.some((m) => m.slice(0, 2) === name) ? name : null;
  renderBoard();
}

function onBotAnswer(event) {
  const { id, result, error } = event.data;
  if (id !== game.request || game.phase !== 'bot') return;
  if (error) {
    setPhase('over', `The bot failed: ${error}`);
    renderButtons();
    return;
  }
  const moves = result.moves.map((m) => m.from + m.to + (m.promotion || ''));
  const delay = Number(params.get('delay') ?? 400);
  const step = (i) => {
    if (id !== game.request || game.phase !== 'bot') return;
    if (i === moves.length) {
      finishTurn();
      return;
    }
    if (!play(moves[i])) {
      setPhase('over', `The bot played ${moves[i]}, which the rules refuse.`);
      renderButtons();
      return;
    }
    if (game.phase === 'over') return;
    render();
    setTimeout(() => step(i + 1), delay);
  };
  step(0);
}

// ---- The helper worker: hints during a game, the analysis after it -------------------------

function helperWorker() {
  if (!helper) {
    helper = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    helper.onmessage = (event) => {
      const { id, result, error, field, progress } = event.data;
      const p = pending.get(id);
      if (!p) return;
      if (progress) {
        p.progress?.(...progress);
        return;
      }
      pending.delete(id);
      if (error !== undefined) p.reject(Object.assign(new Error(error), { field }));
      else p.resolve(result);
    };
  }
  return helper;
}

/** Ask the helper worker: `{kind, ...payload}`; `progress(done, total)` for an analysis. */
function ask(kind, payload, progress) {
  const id = ++helperId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, progress });
    helperWorker().postMessage({ id, kind, ...payload });
  });
}

/** Stop whatever the helper computes (a worker cannot be interrupted: it is replaced). */
function cancelHelper() {
  if (helper) helper.terminate();
  helper = null;
  for (const p of pending.values()) p.reject(Object.assign(new Error('cancelled'), { cancelled: true }));
  pending.clear();
  hintBusy = false;
  hintPending = null;
}

// ---- Hints: the best turns of the current roll, both kings' danger --------------------------

let hintBusy = false; // a hint is being computed
let hintSerial = 0; // the hint computed last
let hintPending = null; // the rolled DFEN whose hint is wanted next (the latest roll only)
let lastHint = null; // { dfen, result } shown

function requestHint() {
  if (!$('show-hint').checked || game.phase === 'over' || !game.turnStart) {
    hintPending = null;
    renderHint(null);
    return;
  }
  if (lastHint?.dfen === game.turnStart) {
    renderHint(lastHint);
    return;
  }
  hintPending = game.turnStart;
  renderHint({ dfen: game.turnStart, result: null });
  nextHint();
}

function nextHint() {
  if (hintBusy || !hintPending) return;
  const dfen = hintPending;
  hintPending = null;
  hintBusy = true;
  const mine = ++hintSerial;
  ask('hint', { dfen, options: { bot: 'best', depth: 2, timeMs: HINT_TIME_MS, top: HINT_TOP } })
    .then((result) => {
      lastHint = { dfen, result };
      if (dfen === game.turnStart && $('show-hint').checked && game.phase !== 'over') renderHint(lastHint);
    })
    .catch((err) => {
      if (!err.cancelled && dfen === game.turnStart) renderHint({ dfen, result: null, error: err.message });
    })
    .finally(() => {
      if (mine !== hintSerial) return; // cancelled, and another one started since
      hintBusy = false;
      nextHint();
    });
}

/** The hint panel: `hint` is { dfen, result, error? } (result null while it is computed), or null. */
function renderHint(hint) {
  const box = $('hint');
  box.hidden = !hint;
  box.textContent = '';
  if (!hint) {
    delete box.dataset.dfen;
    return;
  }
  box.dataset.dfen = hint.dfen;
  const rolled = diceField(hint.dfen);
  const who = sideToMove(hint.dfen) === 'w' ? 'White' : 'Black';
  const head = document.createElement('p');
  head.className = 'hint-head';
  if (hint.error) head.textContent = `No hint: ${hint.error}`;
  else if (!hint.result) head.textContent = `Thinking about ${who}'s roll ${rolled}…`;
  else {
    const r = hint.result;
    head.textContent = `${who} rolled ${rolled}: ${r.candidates} distinct turns, ${r.valued} searched two plies deep.`;
  }
  box.appendChild(head);
  if (!hint.result) return;
  const r = hint.result;
  const table = document.createElement('table');
  table.className = 'hint-turns';
  table.innerHTML = '<tr><th>turn</th><th>win</th><th>own king lost next</th></tr>';
  for (const t of r.turns) {
    const tr = document.createElement('tr');
    tr.dataset.turn = t.moves.join(',');
    tr.dataset.equity = String(t.equity);
    const cells = [t.moves.join(' ') || 'pass', pct(t.equity) + (t.depth === 1 ? '*' : ''), pct(t.kingRisk)];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  box.appendChild(table);
  const kings = document.createElement('p');
  kings.className = 'hint-kings';
  kings.textContent = `King captured on the opponent's next roll, as the board stands: White ${pct(r.whiteKingCaptured)}, Black ${pct(r.blackKingCaptured)}.`;
  box.appendChild(kings);
}

// ---- The analysis view -----------------------------------------------------------------------

function closeAnalysis() {
  delete document.body.dataset.view;
  delete document.body.dataset.analysis;
  $('analysis-panel').hidden = true;
  $('play-panel').hidden = false;
  $('turn-detail').hidden = true;
  $('board').hidden = false;
}

function analyseGame() {
  if (game.phase !== 'over' || !game.winner || game.history.length === 0) return;
  document.body.dataset.view = 'analysis';
  $('play-panel').hidden = true;
  $('analysis-panel').hidden = false;
  if (analysis.state === 'done') {
    showAnalysis();
    return;
  }
  if (analysis.state === 'running') return;
  const total = game.history.length;
  Object.assign(analysis, { state: 'running', result: null, progress: [0, total], ticks: 0, selected: null, error: null });
  document.body.dataset.analysis = 'running';
  $('analysis-body').hidden = true;
  $('analysis-progress').hidden = false;
  showProgress(0, total);
  const number = game.number;
  const options = { bot: 'best', depth: 2, ...(ANALYSIS_TIME_MS > 0 ? { timeMs: ANALYSIS_TIME_MS } : {}) };
  ask('analyze', { game: JSON.stringify(gameDocument()), options }, (done, all) => {
    analysis.ticks += 1;
    analysis.progress = [done, all];
    showProgress(done, all);
  })
    .then((result) => {
      if (number !== game.number) return;
      analysis.state = 'done';
      analysis.result = result;
      if (document.body.dataset.view === 'analysis') showAnalysis();
    })
    .catch((err) => {
      if (err.cancelled) {
        analysis.state = 'none';
        return;
      }
      analysis.state = 'failed';
      analysis.error = err.message;
      document.body.dataset.analysis = 'failed';
      $('analysis-status').textContent = `The analysis failed: ${err.message}`;
    });
}

function showProgress(done, total) {
  $('analysis-progress').max = Math.max(total, 1);
  $('analysis-progress').value = done;
  $('analysis-status').textContent = `Analysing turn ${Math.min(done + 1, total)} of ${total} (the best bot's evaluation, two plies deep)…`;
}

function showAnalysis() {
  const a = analysis.result;
  document.body.dataset.analysis = 'done';
  $('analysis-progress').hidden = true;
  $('analysis-body').hidden = false;
  const marked = a.turns.filter((t) => CLASS_MARKS[t.class]).length;
  $('analysis-status').textContent = `${a.turns.length} turns analysed (${a.evaluator}, depth ${a.depth}): ${marked} marked.`;
  renderSummary(a);
  renderTurnList(a);
  // Show the worst decision first (the first turn when none gave anything away).
  const worst = a.turns.reduce((w, t) => (t.error > w.error ? t : w), a.turns[0]);
  selectTurn(analysis.selected ?? worst.turnNumber);
}

function renderSummary(a) {
  const table = $('analysis-summary');
  const side = (s) => `${s.color === 'w' ? 'White' : 'Black'} (${s.name})`;
  const rows = [
    ['', side(a.white), side(a.black)],
    ['error given away', ...[a.white, a.black].map((s) => `${pct(s.totalError)} (${pct(s.meanError)} a decision)`)],
    ['doubtful · bad · very bad', ...[a.white, a.black].map((s) => `${s.doubtful} · ${s.bad} · ${s.veryBad}`)],
    ['luck', ...[a.white, a.black].map((s) => signedPct(s.totalLuck))],
    ['result (luck-adjusted)', ...[a.white, a.black].map((s) => (s.result === null ? '–' : `${s.result} (${s.luckAdjustedResult.toFixed(2)})`))],
  ];
  table.textContent = '';
  rows.forEach((r, i) => {
    const tr = document.createElement('tr');
    r.forEach((c, j) => {
      const cell = document.createElement(i === 0 || j === 0 ? 'th' : 'td');
      cell.textContent = c;
      tr.appendChild(cell);
    });
    table.appendChild(tr);
  });
}

const SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The equity graph: White's win probability before turn 1, then after each turn. */
function renderGraph(a) {
  const W = 520, H = 150, L = 40, R = 8, T = 8, B = 20;
  const points = equityCurve(a);
  const n = Math.max(points.length - 1, 1);
  const x = (i) => L + ((W - L - R) * i) / n;
  const y = (p) => T + (H - T - B) * (1 - p);
  const svg = svgEl('svg', { id: 'equity-svg', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
    'aria-label': "White's win probability, turn by turn", 'data-points': points.length });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.appendChild(svgEl('line', { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? 'axis mid' : 'axis' }));
    svg.appendChild(svgEl('text', { x: L - 4, y: y(p) + 4, 'text-anchor': 'end', class: 'label' }, `${100 * p} %`));
  }
  const step = Math.max(1, Math.ceil(n / 12));
  for (let i = 0; i <= n; i += step) {
    svg.appendChild(svgEl('text', { x: x(i), y: H - 5, 'text-anchor': 'middle', class: 'label' }, String(i)));
  }
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(' ');
  svg.appendChild(svgEl('path', { d: `${line} L${x(points.length - 1).toFixed(1)},${y(0.5)} L${x(0)},${y(0.5)} Z`, class: 'area' }));
  svg.appendChild(svgEl('path', { d: line, class: 'curve' }));
  if (analysis.selected) {
    const i = analysis.selected;
    svg.appendChild(svgEl('line', { x1: x(i), x2: x(i), y1: T, y2: H - B, class: 'selected' }));
  }
  a.turns.forEach((t, k) => {
    if (!CLASS_MARKS[t.class]) return;
    const dot = svgEl('circle', { cx: x(k + 1), cy: y(points[k + 1]), r: 5, class: `mark ${t.class}`, 'data-turn': t.turnNumber });
    dot.appendChild(svgEl('title', {}, `turn ${t.turnNumber}: ${words(t.class)}, gave away ${pct(t.error)}`));
    dot.addEventListener('click', () => selectTurn(t.turnNumber));
    svg.appendChild(dot);
  });
  $('equity-graph').replaceChildren(svg);
}

/** One bar a roll: its luck for the roller, up when lucky. */
function renderLuck(a) {
  const W = 520, H = 70, L = 40, R = 8, T = 4, B = 4;
  const n = Math.max(a.turns.length, 1);
  const scale = Math.max(0.3, ...a.turns.map((t) => Math.abs(t.luck)));
  const mid = T + (H - T - B) / 2;
  const half = (H - T - B) / 2;
  const slot = (W - L - R) / n;
  const svg = svgEl('svg', { id: 'luck-svg', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
    'aria-label': 'luck of each roll' });
  svg.appendChild(svgEl('line', { x1: L, x2: W - R, y1: mid, y2: mid, class: 'axis mid' }));
  svg.appendChild(svgEl('text', { x: L - 4, y: T + 10, 'text-anchor': 'end', class: 'label' }, signedPct(scale).replace(/\.\d/, '')));
  svg.appendChild(svgEl('text', { x: L - 4, y: H - B, 'text-anchor': 'end', class: 'label' }, signedPct(-scale).replace(/\.\d/, '')));
  a.turns.forEach((t, k) => {
    const h = (half * Math.abs(t.luck)) / scale;
    const bar = svgEl('rect', {
      x: (L + k * slot + slot * 0.15).toFixed(1), width: Math.max(1, slot * 0.7).toFixed(1),
      y: (t.luck >= 0 ? mid - h : mid).toFixed(1), height: Math.max(h, 0.5).toFixed(1),
      class: `bar ${t.activeColor} ${t.luckClass}${analysis.selected === t.turnNumber ? ' selected' : ''}`,
      'data-turn': t.turnNumber,
    });
    bar.appendChild(svgEl('title', {}, `turn ${t.turnNumber} (${t.activeColor === 'w' ? 'White' : 'Black'}): luck ${signedPct(t.luck)}, ${words(t.luckClass)}`));
    bar.addEventListener('click', () => selectTurn(t.turnNumber));
    svg.appendChild(bar);
  });
  $('luck-bars').replaceChildren(svg);
}

/** A roll's faces as the mover's dice letters. */
const diceLetters = (faces, color) => {
  const s = faces.map((f) => 'PNBRQK'[f - 1]).join('');
  return color === 'w' ? s : s.toLowerCase();
};

function renderTurnList(a) {
  const list = $('analysis-turns');
  list.textContent = '';
  for (const t of a.turns) {
    const li = document.createElement('li');
    li.dataset.turn = t.turnNumber;
    li.dataset.class = t.class;
    if (CLASS_MARKS[t.class]) li.classList.add('marked', t.class);
    const mark = CLASS_MARKS[t.class] ? ` ${CLASS_MARKS[t.class]}` : '';
    const err = t.error >= 0.0005 ? ` −${pct(t.error)}` : '';
    li.textContent = `${t.activeColor === 'w' ? 'White' : 'Black'} ${diceLetters(t.dice, t.activeColor)}: ${t.moves.join(' ') || 'pass'}${mark}${err}`;
    li.title = `${words(t.class)}; luck ${signedPct(t.luck)}`;
    li.addEventListener('click', () => selectTurn(t.turnNumber));
    list.appendChild(li);
  }
}

/** The DFEN after `moves` played from `fenBefore` with `faces` rolled (the turn ended). */
function afterTurn(fenBefore, faces, color, moves) {
  let d = withDice(fenBefore, diceLetters(faces, color));
  for (const m of moves) {
    const next = engine.applyMove(d, m.slice(0, 2), m.slice(2, 4), m.slice(4) || undefined);
    if (next === undefined) return null;
    d = next;
  }
  return engine.endTurn(d);
}

/** Show one analysed turn: the board after the played turn and after the best one. */
function selectTurn(number) {
  const a = analysis.result;
  const t = a && a.turns.find((x) => x.turnNumber === number);
  if (!t) return;
  analysis.selected = number;
  renderGraph(a);
  renderLuck(a);
  for (const li of $('analysis-turns').children) li.classList.toggle('selected', Number(li.dataset.turn) === number);
  $('analysis-turns').querySelector('li.selected')?.scrollIntoView({ block: 'nearest' });
  $('board').hidden = true;
  $('turn-detail').hidden = false;
  $('turn-detail').dataset.turn = number;
  const who = t.activeColor === 'w' ? 'White' : 'Black';
  const mark = CLASS_MARKS[t.class] ? ` ${CLASS_MARKS[t.class]}` : '';
  $('detail-title').textContent = `Turn ${number}: ${who} rolled ${diceLetters(t.dice, t.activeColor)} — ${words(t.class)}${mark}`;
  const squares = (moves) => new Set(moves.flatMap((m) => [m.slice(0, 2), m.slice(2, 4)]));
  const draw = (el, dfen, moves, cls) => {
    const marked = squares(moves);
    drawBoard(el, dfen, game.human === 'b', (sq, name) => {
      if (marked.has(name)) sq.classList.add(cls);
    });
  };
  draw($('played-board'), t.fenAfter, t.moves, 'played');
  $('played-caption').textContent = `Played ${t.moves.join(' ') || 'pass'}: ${pct(t.playedEquity)}`;
  const best = afterTurn(t.fenBefore, t.dice, t.activeColor, t.bestMoves) ?? t.fenAfter;
  draw($('best-board'), best, t.bestMoves, 'best');
  $('best-caption').textContent = `Best ${t.bestMoves.join(' ') || 'pass'}: ${pct(t.bestEquity)}`;
  const same = t.class === 'forced' ? 'The roll allowed no other turn.'
    : t.error === 0 ? 'The played turn is the best one.'
      : `The played turn gave away ${pct(t.error)} of ${who}'s winning chances.`;
  $('detail-text').textContent = `${who}'s chances: ${pct(t.equityBefore)} before the roll, ${pct(t.equityAfterRoll)} after it (luck ${signedPct(t.luck)}, ${words(t.luckClass)}). ${same} ` +
    `${t.candidates} distinct turns, ${t.valued} searched two plies deep. ${who}'s king is lost on the next roll with ${pct(t.kingRisk)} after the played turn, ${pct(t.bestKingRisk)} after the best.` +
    ` White's view after the turn: ${pct(whiteView(t.activeColor, t.playedEquity))}.`;
}

async function main() {
  await init();
  for (const b of engine.getAvailableBots()) {
    const o = document.createElement('option');
    o.value = b.id;
    o.textContent = `${b.name} (${b.difficulty})`;
    $('bot').appendChild(o);
  }
  $('bot').value = params.get('bot') || 'greedy';
  if (params.get('side')) $('side').value = params.get('side');
  const time = params.get('time');
  if (time && ![...$('time').options].some((o) => o.value === time)) {
    const o = document.createElement('option');
    o.value = time;
    o.textContent = `${time} ms`;
    $('time').appendChild(o);
  }
  if (time) $('time').value = time;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = onBotAnswer;
  $('new-game').addEventListener('click', newGame);
  $('new-game-2').addEventListener('click', newGame);
  $('resign').addEventListener('click', resign);
  $('analyse').addEventListener('click', analyseGame);
  $('back').addEventListener('click', () => {
    cancelHelper();
    closeAnalysis();
  });
  $('show-hint').addEventListener('change', requestHint);
  newGame();
}

// What the browser test reads (the page's own state, nothing it cannot see on screen).
window.dicechessPage = {
  snapshot: () => ({
    phase: game.phase,
    dfen: game.dfen,
    turnStart: game.turnStart,
    prefix: game.prefix.slice(),
    legalNext: game.phase === 'human' ? legalNext() : [],
    history: game.history.map((h) => ({ ...h, moves: h.moves.slice() })),
    document: gameDocument(),
  }),
  analysis: () => ({
    state: analysis.state,
    progress: analysis.progress.slice(),
    ticks: analysis.ticks,
    selected: analysis.selected,
    error: analysis.error,
    result: analysis.result,
  }),
  hint: () => lastHint,
};

main().catch((err) => setPhase('over', `Could not start the engine: ${err.message || err}`));
