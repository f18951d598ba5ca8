#!/usr/bin/env bash
# Print the wasm-bindgen version web/crate/Cargo.lock pins (the CLI must match it exactly).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' crate/Cargo.lock
