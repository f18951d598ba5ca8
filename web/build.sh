#!/usr/bin/env bash
# Build the wasm package web/pkg from web/crate: one wasm32-unknown-unknown release build,
# bound twice by wasm-bindgen — `--target nodejs` (web/pkg/node, CommonJS, loads itself
# synchronously) and `--target web` (web/pkg/web, an ES module for pages and workers) — plus
# package.json and the ESM entry for Node. Needs the wasm32 target and wasm-bindgen-cli of
# exactly the crate's wasm-bindgen version (.ci/test-web installs both).
# Run from anywhere: `bash web/build.sh`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT="$(cd .. && pwd)"

want="$(bash ./wasm-bindgen-version.sh)"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$have" != "$want" ]; then
  echo "web/build.sh: needs wasm-bindgen-cli $want (found ${have:-none}):" >&2
  echo "  rustup target add wasm32-unknown-unknown && cargo install wasm-bindgen-cli --version $want" >&2
  exit 1
fi

(cd crate && cargo build --release --locked --target wasm32-unknown-unknown --target-dir "$ROOT/target")
wasm="$ROOT/target/wasm32-unknown-unknown/release/dicechess_web.wasm"

rm -rf pkg
mkdir -p pkg
wasm-bindgen --target nodejs --out-dir pkg/node "$wasm"
wasm-bindgen --target web --out-dir pkg/web "$wasm"
# The JVM build's `DiceChess` object (`import { DiceChess } from '@fortemate/dicechess-engine'`):
# every function pkg-template/index.mjs re-exports, under one frozen object, in both builds and
# their type declarations.
names="$(sed -n '/^export const {$/,/^} = engine;$/p' pkg-template/index.mjs | sed -n 's/^  \([A-Za-z]*\),$/\1/p')"
members="$(for n in $names; do printf ' %s,' "$n"; done)"
types="$(for n in $names; do printf ' %s: typeof %s;' "$n" "$n"; done)"
printf '\n// The JVM build'"'"'s DiceChess object (web/build.sh).\nexports.DiceChess = Object.freeze({%s });\n' "$members" >> pkg/node/dicechess_web.js
printf '\n// The JVM build'"'"'s DiceChess object (web/build.sh).\nexport const DiceChess = Object.freeze({%s });\n' "$members" >> pkg/web/dicechess_web.js
for d in pkg/node/dicechess_web.d.ts pkg/web/dicechess_web.d.ts; do
  printf '\n/** The JVM build'"'"'s `DiceChess` object: every function of this package. */\nexport declare const DiceChess: Readonly<{%s }>;\n' "$types" >> "$d"
done
# The JVM build's legacy `EngineFacade` object (its js/dicechess-engine.d.ts: getBotMove,
# getPieceTypeAt, applyMove and endTurn, the last two its dice-blind forms).
facade=' getBotMove, getPieceTypeAt, applyMove: applyMoveFacade, endTurn: endTurnFacade,'
facade_types=' getBotMove: typeof getBotMove; getPieceTypeAt: typeof getPieceTypeAt; applyMove: typeof applyMoveFacade; endTurn: typeof endTurnFacade;'
printf 'exports.EngineFacade = Object.freeze({%s });\n' "$facade" >> pkg/node/dicechess_web.js
printf 'export const EngineFacade = Object.freeze({%s });\n' "$facade" >> pkg/web/dicechess_web.js
for d in pkg/node/dicechess_web.d.ts pkg/web/dicechess_web.d.ts; do
  printf '/** The JVM build'"'"'s legacy `EngineFacade` object. */\nexport declare const EngineFacade: Readonly<{%s }>;\n' "$facade_types" >> "$d"
done
cp pkg-template/package.json pkg-template/index.mjs pkg/
# The browser build is ES modules; tell Node so too if it is ever imported directly.
printf '{ "type": "module" }\n' > pkg/web/package.json
printf '{ "type": "commonjs" }\n' > pkg/node/package.json

gz="$(gzip -9 -c pkg/web/dicechess_web_bg.wasm | wc -c)"
raw="$(wc -c < pkg/web/dicechess_web_bg.wasm)"
echo "web/pkg built: dicechess_web_bg.wasm $raw bytes, $gz gzipped (gzip -9)"
