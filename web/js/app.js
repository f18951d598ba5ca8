// The page: a game against a bot. The engine (web/pkg, WebAssembly) answers every rules
// question on this thread — they take milliseconds — and the bot thinks in a Web Worker, so
// the page never freezes.
import init, * as engine from '../pkg/web/dicechess_web.js';
import { pieces, sideToMove, diceField, withDice, winner } from './position.js';
import { generator, roll, dieStates, face } from './dice.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
// Pieces use the filled glyphs for both colours (the colour comes from the CSS class), so a
// black rook and a white rook differ by fill, not by a thin outline; the dice keep the outlines.
const PIECE_GLYPHS = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟\uFE0E' };
const GLYPHS = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙' };
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

const game = {
  dfen: START, // the position now (mid-turn: the dice left in its seventh field)
  turnStart: null, // the DFEN with the roll, at the start of this turn
  rolled: '', // this turn's dice letters
  turns: [], // the legal turn paths of the roll (arrays of UCI)
  prefix: [], // the micro-moves played so far this turn
  phase: 'loading', // human | bot | over
  human: 'w',
  selected: null,
  last: [], // squares of the last micro-move
  history: [], // { side, dice, moves }
  random: generator(Number(params.get('seed') ?? Math.floor(Math.random() * 2 ** 31))),
  request: 0,
};
let worker = null;

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

function renderBoard() {
  const board = $('board');
  board.textContent = '';
  const at = pieces(game.dfen);
  const next = game.phase === 'human' ? legalNext() : [];
  const from = new Set(next.map((m) => m.slice(0, 2)));
  const targets = new Set(
    next.filter((m) => m.slice(0, 2) === game.selected).map((m) => m.slice(2, 4)),
  );
  const flip = game.human === 'b';
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
      if (from.has(name)) sq.classList.add('movable');
      if (name === game.selected) sq.classList.add('selected');
      if (targets.has(name)) sq.classList.add('target');
      if (game.last.includes(name)) sq.classList.add('last');
      sq.addEventListener('click', () => onSquare(name));
      board.appendChild(sq);
    }
  }
  board.dataset.dfen = game.dfen;
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

function render() {
  renderBoard();
  renderDice();
  renderProbabilities();
  renderHistory();
}

function newGame() {
  game.request += 1; // a bot answer still on its way is for the old game: ignore it
  game.human = $('side').value;
  game.dfen = START;
  game.history = [];
  game.last = [];
  startTurn();
}

function startTurn() {
  const side = sideToMove(game.dfen);
  game.rolled = roll(game.random, side);
  game.turnStart = withDice(game.dfen, game.rolled);
  game.dfen = game.turnStart;
  game.prefix = [];
  game.selected = null;
  game.turns = engine.getLegalTurns(game.turnStart);
  const who = side === 'w' ? 'White' : 'Black';
  if (side === game.human) {
    if (game.turns.length === 0) {
      setPhase('human', `${who} rolled ${game.rolled}: no legal turn, pass.`);
      render();
      setTimeout(finishTurn, 600);
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
  game.history.push({ side: sideToMove(game.dfen), dice: game.rolled, moves: game.prefix.slice() });
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
    game.history.push({ side: sideToMove(game.dfen), dice: game.rolled, moves: game.prefix.slice() });
    setPhase('over', `${won === 'w' ? 'White' : 'Black'} captures the king and wins. New game?`);
    render();
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
    return;
  }
  const moves = result.moves.map((m) => m.from + m.to + (m.promotion || ''));
  const delay = Number(params.get('delay') ?? 400);
  const step = (i) => {
    if (id !== game.request) return;
    if (i === moves.length) {
      finishTurn();
      return;
    }
    if (!play(moves[i])) {
      setPhase('over', `The bot played ${moves[i]}, which the rules refuse.`);
      return;
    }
    if (game.phase === 'over') return;
    render();
    setTimeout(() => step(i + 1), delay);
  };
  step(0);
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
  }),
};

main().catch((err) => setPhase('over', `Could not start the engine: ${err.message || err}`));
