// Reading the parts of a DFEN the page draws (the engine does all the rules).

/** The pieces of a DFEN's placement: a Map from square name ("e4") to letter ("P", "k"). */
export function pieces(dfen) {
  const out = new Map();
  const ranks = dfen.split(' ')[0].split('/');
  ranks.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (c >= '1' && c <= '8') {
        file += Number(c);
      } else {
        out.set('abcdefgh'[file] + String(8 - i), c);
        file += 1;
      }
    }
  });
  return out;
}

/** The side to move, "w" or "b". */
export function sideToMove(dfen) {
  return dfen.split(' ')[1];
}

/** The dice field (seventh), "" when absent. */
export function diceField(dfen) {
  const f = dfen.split(' ');
  return f.length >= 7 && f[6] !== '-' ? f[6] : '';
}

/** The DFEN with `letters` as its dice field (replacing any). */
export function withDice(dfen, letters) {
  return dfen.split(' ').slice(0, 6).concat(letters ? [letters] : []).join(' ');
}

/** The winner when a king has been captured ("w" or "b"), else null. */
export function winner(dfen) {
  const placement = dfen.split(' ')[0];
  const white = placement.includes('K');
  const black = placement.includes('k');
  if (white && !black) return 'w';
  if (black && !white) return 'b';
  return null;
}
