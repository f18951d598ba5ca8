// The checks web/test/pack.test.mjs runs on the installed package, the same in Node (CommonJS
// `require`, ES `import`) and in a browser page without a bundler: `check(full, rules)` takes
// the modules of the `.` and `./rules` entries and throws on the first wrong answer, else
// returns a summary. Plain JavaScript (no node: imports), so the page can load it as it is.
// The expected values are known independently of this package: the JVM build's spec examples
// (RulesApiSpec.scala, JsApiSpec.scala), chess perft, tests/data/first_moves.json and turns
// counted by hand.

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const PROMO = 'k7/4P3/8/8/8/8/8/4K3 w - - 0 1 P'; // RulesApiSpec's promoDfen
// tests/data/first_moves.json, the start with P, N and B rolled.
const PNB_FIRST = ['b1a3', 'b1c3', 'b2b3', 'b2b4', 'd2d3', 'd2d4', 'e2e3', 'e2e4', 'g1f3', 'g1h3', 'g2g3', 'g2g4'];
// The rules calls both entries bind (the JVM build's rules entry's seven first).
export const RULES_CALLS = [
  'getLegalUciMoves', 'generateMoves', 'applyMove', 'endTurn', 'perft', 'getPieceFromDice', 'canonicalKey',
  'getLegalTurns', 'getLegalTurnTree', 'countLegalTurns', 'getPlayableDice', 'validateDfen', 'getPieceTypeAt',
  'perftSingleDie', 'canonicalDfen', 'positionKeys', 'kingCaptureProbability',
];
// The calls only the full entry binds.
export const BOT_CALLS = [
  'getBestMove', 'getAvailableBots', 'getAvailableTimePolicies', 'estimateEquity', 'registerOpeningBookBot',
  'shouldBotOfferDouble', 'shouldBotAcceptDouble', 'shouldBotOfferDraw', 'shouldBotAcceptDraw', 'analyzeGame', 'hint',
];

function eq(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** The answers every entry gives, through its `DiceChess` object and its named exports. */
function rulesChecks(m, name) {
  const D = m.DiceChess;
  for (const f of RULES_CALLS) {
    eq(typeof m[f], 'function', `${name}: ${f} exported`);
    eq(D[f] === m[f], true, `${name}: DiceChess.${f}`);
  }
  eq(Object.isFrozen(D), true, `${name}: DiceChess frozen`);
  eq(Object.keys(m.EngineFacade), ['getBotMove', 'getPieceTypeAt', 'applyMove', 'endTurn'], `${name}: EngineFacade`);
  eq([...D.getLegalUciMoves(PROMO)].sort(), ['e7e8b', 'e7e8n', 'e7e8q', 'e7e8r'], `${name}: promotions`);
  eq([...D.getLegalUciMoves(`${START} PNB`)].sort(), PNB_FIRST, `${name}: first moves of PNB`);
  eq(D.getLegalUciMoves('invalid-fen'), [], `${name}: [] for a bad DFEN`);
  // Turns from the start: one knight die, 4 turns; two, 5 + 7 + 7 + 5 paths.
  eq(D.getLegalTurns(`${START} N`).map((t) => t.join(',')).sort(), ['b1a3', 'b1c3', 'g1f3', 'g1h3'], `${name}: turns of N`);
  eq(D.getLegalTurns(`${START} NN`).length, 24, `${name}: turns of NN`);
  eq(D.countLegalTurns(`${START} NN`), 24, `${name}: countLegalTurns`);
  eq(D.perft(START, 0), 1, `${name}: perft 0`);
  eq(D.perft(START, 2), 400, `${name}: perft 2`);
  eq(D.perft(START, 3), 8902, `${name}: perft 3 (chess)`);
  eq(D.generateMoves(START).length, 20, `${name}: generateMoves`);
  eq([1, 2, 3, 4, 5, 6, 7].map(D.getPieceFromDice), ['p', 'n', 'b', 'r', 'q', 'k', null], `${name}: getPieceFromDice`);
  // RulesApiSpec: applyMove keeps the unspent dice, castling spends two, a move no die allows is refused.
  eq(D.applyMove(`${START} PPN`, 'e2', 'e4'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 PN', `${name}: applyMove PPN`);
  eq(D.applyMove('4k3/8/8/8/8/8/4P3/4K2R w K - 0 1 PRK', 'e1', 'g1'), '4k3/8/8/8/8/8/4P3/5RK1 w - - 1 1 P', `${name}: castling`);
  eq(D.applyMove(`${START} NNN`, 'e2', 'e4'), undefined, `${name}: no die`);
  eq(D.applyMove(START, 'e2', 'e5'), undefined, `${name}: pseudo-illegal`);
  eq(D.endTurn('rnbqkbnr/p1pppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6e3 0 1 PN'),
    'rnbqkbnr/p1pppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', `${name}: endTurn`);
  const key = D.canonicalKey(START);
  eq(D.canonicalKey(key), key, `${name}: canonicalKey idempotent`);
  eq(D.canonicalKey('not-a-fen'), undefined, `${name}: canonicalKey of a bad DFEN`);
  let field = null;
  try {
    D.validateDfen(`${START.replace('KQkq', 'KQxq')} PNB`);
  } catch (e) {
    field = e.field;
  }
  eq(field, 'castling', `${name}: validateDfen names the field`);
  return key;
}

/** Check both entries; `full` and `rules` are the modules `.` and `./rules` give. */
export function check(full, rules) {
  const key = rulesChecks(full, '.');
  eq(rulesChecks(rules, './rules'), key, 'the two entries agree on canonicalKey');
  for (const f of BOT_CALLS) {
    eq(typeof full[f], 'function', `.: ${f} exported`);
    eq(full.DiceChess[f] === full[f], true, `.: DiceChess.${f}`);
    eq(f in rules || f in rules.DiceChess, false, `./rules has no ${f}`);
  }
  // Every bot takes the king when it can (a rook on the open file, the black king alone).
  const take = '4k3/8/8/8/8/8/8/4RK2 w - - 0 1 RNB';
  for (const algorithm of ['greedy', 'checkmate-aware', 'expectimax']) {
    const r = full.DiceChess.getBestMove(take, { algorithm, seed: 1 });
    eq(r.moves, [{ from: 'e1', to: 'e8' }], `.: getBestMove ${algorithm}`);
    eq(r.algorithm, algorithm, `.: getBestMove ${algorithm} played`);
  }
  const opening = full.DiceChess.getBestMove(`${START} PNB`, { algorithm: 'greedy', seed: 3 });
  const turn = opening.moves.map((m) => m.from + m.to + (m.promotion || '')).join(',');
  eq(full.getLegalTurns(`${START} PNB`).some((t) => t.join(',') === turn), true, `.: greedy's turn ${turn} is legal`);
  eq(full.getAvailableTimePolicies(), ['empirical-v1', 'legacy-linear-v1'], '.: time policies');
  return { key, turn, bots: full.getAvailableBots().length };
}
