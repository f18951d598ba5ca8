#!/usr/bin/env bash
# Build the wasm package web/pkg from web/crate: two wasm32-unknown-unknown release builds —
# everything (the package's `.` entry) and the rules alone (its `./rules` entry, pkg/rules) —
# each bound twice by wasm-bindgen — `--target nodejs` (node/, CommonJS, loads itself
# synchronously) and `--target web` (web/, an ES module for pages and workers, with index.js,
# the browser entry, initialised on import) — plus package.json and the ESM entries for Node
# (index.mjs, rules.mjs). `cd web/pkg && npm pack` packs it. Needs the wasm32 target and wasm-bindgen-cli of
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

# Both packages of web/crate in one cargo run: dicechess-web (everything) and
# dicechess-web-rules (the same sources without the `bots` feature: the rules entry). They
# share every dependency's build; LTO keeps only what each binds.
(cd crate && cargo build --release --locked --target wasm32-unknown-unknown --target-dir "$ROOT/target" \
  -p dicechess-web -p dicechess-web-rules)
release="$ROOT/target/wasm32-unknown-unknown/release"

rm -rf pkg
mkdir -p pkg

# bind NAME OUT ENTRY: bind $release/NAME.wasm twice under pkg/OUT — `--target nodejs` (OUT/node,
# CommonJS) and `--target web` (OUT/web, an ES module) — and add the JVM build's `DiceChess`
# object (every function ENTRY, the Node ESM entry, re-exports, under one frozen object) and its
# legacy `EngineFacade` object (js/dicechess-engine.d.ts: getBotMove, getPieceTypeAt, and the
# dice-blind applyMove and endTurn) to both builds and their type declarations; and the browser
# entry OUT/web/index.js, initialised on import.
bind() {
  local name="$1" out="$2" entry="$3"
  wasm-bindgen --target nodejs --out-dir "$out/node" "$release/$name.wasm"
  wasm-bindgen --target web --out-dir "$out/web" "$release/$name.wasm"
  local names members types
  names="$(sed -n '/^export const {$/,/^} = engine;$/p' "$entry" | sed -n 's/^  \([A-Za-z]*\),$/\1/p')"
  members="$(for n in $names; do printf ' %s,' "$n"; done)"
  types="$(for n in $names; do printf ' %s: typeof %s;' "$n" "$n"; done)"
  printf '\n// The JVM build'"'"'s DiceChess object (web/build.sh).\nexports.DiceChess = Object.freeze({%s });\n' "$members" >> "$out/node/$name.js"
  printf '\n// The JVM build'"'"'s DiceChess object (web/build.sh).\nexport const DiceChess = Object.freeze({%s });\n' "$members" >> "$out/web/$name.js"
  for d in "$out/node/$name.d.ts" "$out/web/$name.d.ts"; do
    printf '\n/** The JVM build'"'"'s `DiceChess` object: every function of this entry. */\nexport declare const DiceChess: Readonly<{%s }>;\n' "$types" >> "$d"
  done
  local facade=' getBotMove, getPieceTypeAt, applyMove: applyMoveFacade, endTurn: endTurnFacade,'
  local facade_types=' getBotMove: typeof getBotMove; getPieceTypeAt: typeof getPieceTypeAt; applyMove: typeof applyMoveFacade; endTurn: typeof endTurnFacade;'
  printf 'exports.EngineFacade = Object.freeze({%s });\n' "$facade" >> "$out/node/$name.js"
  printf 'export const EngineFacade = Object.freeze({%s });\n' "$facade" >> "$out/web/$name.js"
  for d in "$out/node/$name.d.ts" "$out/web/$name.d.ts"; do
    printf '/** The JVM build'"'"'s legacy `EngineFacade` object. */\nexport declare const EngineFacade: Readonly<{%s }>;\n' "$facade_types" >> "$d"
  done
  sed "s/BUILD/$name/" pkg-template/browser.js > "$out/web/index.js"
  sed "s/BUILD/$name/" pkg-template/browser.d.ts > "$out/web/index.d.ts"
  # The browser build is ES modules; tell Node so too if it is ever imported directly.
  printf '{ "type": "module" }\n' > "$out/web/package.json"
  printf '{ "type": "commonjs" }\n' > "$out/node/package.json"
}
bind dicechess_web pkg pkg-template/index.mjs
bind dicechess_web_rules pkg/rules pkg-template/rules.mjs
cp pkg-template/index.mjs pkg-template/rules.mjs pkg/
# package.json, its version the crate's.
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' crate/Cargo.toml | head -n 1)"
sed "s/\"version\": \"[^\"]*\"/\"version\": \"$version\"/" pkg-template/package.json > pkg/package.json

# The sizes of the two entries' .wasm (web/README.md states them; .ci/test-web budgets them).
size() { printf '%s %s bytes, %s gzipped (gzip -9)' "$1" "$(wc -c < "$1")" "$(gzip -9 -c "$1" | wc -c)"; }
echo "web/pkg $version built:"
echo "  .       $(size pkg/web/dicechess_web_bg.wasm)"
echo "  ./rules $(size pkg/rules/web/dicechess_web_rules_bg.wasm)"
