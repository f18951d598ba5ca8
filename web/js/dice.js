// Rolling the dice (seeded, so a game can be replayed) and which dice are live, dimmed or spent.

const LETTERS = 'PNBRQK';

/** A small seeded generator (mulberry32): a function returning floats in [0, 1). */
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Three dice as DFEN letters in face order, upper case for White ("PNB"), lower for Black. */
export function roll(random, side) {
  const faces = [0, 0, 0].map(() => 1 + Math.floor(random() * 6)).sort((a, b) => a - b);
  const letters = faces.map((f) => LETTERS[f - 1]).join('');
  return side === 'w' ? letters : letters.toLowerCase();
}

/**
 * The state of each rolled die: "live" (some legal turn can still spend it), "dim" (still in
 * the pool, but no legal turn from here spends it) or "spent".
 * @param {string} rolled the turn's dice letters
 * @param {string} left the pool now
 * @param {string} playable the dice still playable (getPlayableDice)
 */
export function dieStates(rolled, left, playable) {
  const count = (s) => {
    const m = new Map();
    for (const c of s.toUpperCase()) m.set(c, (m.get(c) || 0) + 1);
    return m;
  };
  const leftCount = count(left);
  const playCount = count(playable);
  return [...rolled].map((letter) => {
    const u = letter.toUpperCase();
    if (!leftCount.get(u)) return { letter, state: 'spent' };
    leftCount.set(u, leftCount.get(u) - 1);
    if (!playCount.get(u)) return { letter, state: 'dim' };
    playCount.set(u, playCount.get(u) - 1);
    return { letter, state: 'live' };
  });
}

/** The die face (1 to 6) of a letter. */
export function face(letter) {
  return LETTERS.indexOf(letter.toUpperCase()) + 1;
}
