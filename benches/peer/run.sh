#!/usr/bin/env bash
# Builds the C++ peer `kezsulap/dice-chess-engine` at a pinned commit with its own release
# flags (g++ -O3 -march=native -flto) around bench_peer.cpp, times it, and prints the line to
# run the chance bench beside it:
#
#   bash benches/peer/run.sh            # prints DICECHESS_PEER_US=...
#   DICECHESS_PEER_US=... cargo bench --bench chance
#
# Needs git, g++ (C++20) and the network for the clone ($PEER_REPO: another place to clone
# from, e.g. a local mirror). The clone and the binary go to $PEER_DIR (default: a fresh
# temporary folder, removed afterwards).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
commit=40396155ff00acfac57ba1f59717f5a37714fb3b
dir="${PEER_DIR:-}"
if [[ -z "$dir" ]]; then
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
fi
if [[ ! -d "$dir/dice-chess-engine/.git" ]]; then
  git clone --quiet "${PEER_REPO:-https://github.com/kezsulap/dice-chess-engine}" \
    "$dir/dice-chess-engine"
fi
git -C "$dir/dice-chess-engine" checkout --quiet "$commit"
g++ -std=c++20 -O3 -DNDEBUG -march=native -flto=auto \
  -I "$dir/dice-chess-engine" \
  -o "$dir/bench_peer" "$here/bench_peer.cpp" "$dir/dice-chess-engine/board.cpp"
"$dir/bench_peer"
