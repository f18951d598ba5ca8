#!/usr/bin/env bash
# Run every cargo-fuzz target for a short, fixed time on stable Rust (no sanitizer).
#
#   bash fuzz/run-ci.sh                   # from the repo root (or from anywhere)
#   FUZZ_SECONDS=300 bash fuzz/run-ci.sh  # longer runs
#   FUZZ_TARGETS=turns bash fuzz/run-ci.sh
#
# Exits non-zero if any target crashes, fails an assertion, times out on one input or
# fails to build; the failing input is saved under fuzz/artifacts/<target>/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."   # cargo fuzz expects the directory above fuzz/

seconds="${FUZZ_SECONDS:-20}"
targets="${FUZZ_TARGETS:-dfen turns manifest eval_input replay webhook labels arena_journal history label_input play_events suite tablebase_file decision_set score_run}"
# One input taking longer than this (seconds) is reported as a failure (a hang).
per_input_timeout="${FUZZ_INPUT_TIMEOUT:-60}"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "run-ci: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

# All targets in one cargo run first (when running them all): the bins compile and link in
# parallel, and each `cargo fuzz run` below finds its bin built.
if [[ -z "${FUZZ_TARGETS:-}" ]] && ! cargo fuzz build --sanitizer none; then
    echo "run-ci: the fuzz targets do not build" >&2
    exit 1
fi

failed=()
for target in $targets; do
    echo "run-ci: fuzzing '$target' for ${seconds}s" >&2
    mkdir -p "fuzz/corpus/$target"
    # `if` keeps `set -e` from stopping the loop; the status is recorded instead.
    if cargo fuzz run --sanitizer none "$target" -- \
        -max_total_time="$seconds" -timeout="$per_input_timeout" -print_final_stats=1; then
        echo "run-ci: '$target' passed" >&2
    else
        status=$?
        echo "run-ci: '$target' FAILED (exit $status); inputs in fuzz/artifacts/$target/" >&2
        failed+=("$target")
    fi
done

if ((${#failed[@]})); then
    echo "run-ci: failing targets: ${failed[*]}" >&2
    exit 1
fi
echo "run-ci: all targets passed" >&2
