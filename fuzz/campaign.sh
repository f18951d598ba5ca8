#!/usr/bin/env bash
# A fuzzing campaign: every cargo-fuzz target for a set time, its corpus kept between runs,
# and a table of runs per target (the README's "Fuzzing" states the last one).
#
#   bash fuzz/campaign.sh                        # every target, 600 s each, nproc at a time
#   FUZZ_SECONDS=3600 bash fuzz/campaign.sh      # longer
#   FUZZ_TARGETS="turns dfen" FUZZ_JOBS=1 bash fuzz/campaign.sh
#
# The corpus of each target is fuzz/corpus/<target>: the committed seeds (seed-*) and
# everything earlier runs found (ignored by git, kept on disk), so each campaign starts where
# the last one stopped. A failing input is saved under fuzz/artifacts/<target>/ and the
# campaign exits non-zero. The table goes to stdout and to fuzz/campaign/last.md; each
# target's log to fuzz/campaign/<target>.log.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."   # cargo fuzz expects the directory above fuzz/

seconds="${FUZZ_SECONDS:-600}"
all_targets="dfen turns manifest eval_input replay webhook labels arena_journal history label_input play_events suite"
targets="${FUZZ_TARGETS:-$all_targets}"
jobs="${FUZZ_JOBS:-$(nproc)}"
per_input_timeout="${FUZZ_INPUT_TIMEOUT:-60}"
out="fuzz/campaign"
mkdir -p "$out"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "campaign: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

# Build every target first, so the timed runs fuzz and do not compile.
for target in $targets; do
    cargo fuzz build --sanitizer none "$target" >&2
done

run_one() {
    local target="$1"
    mkdir -p "fuzz/corpus/$target"
    local status=0
    cargo fuzz run --sanitizer none "$target" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -timeout="$per_input_timeout" -print_final_stats=1 \
        >"$out/$target.log" 2>&1 || status=$?
    echo "$status" >"$out/$target.status"
}

running=0
for target in $targets; do
    echo "campaign: fuzzing '$target' for ${seconds}s" >&2
    run_one "$target" &
    running=$((running + 1))
    if ((running >= jobs)); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

{
    echo "Campaign of $(date -u +%Y-%m-%d), ${seconds} s per target, ${jobs} at a time on $(nproc) cores:"
    echo
    echo "| target | runs | runs/s | corpus | crashes |"
    echo "|---|---|---|---|---|"
    for target in $targets; do
        log="$out/$target.log"
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
        rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
        corpus=$(find "fuzz/corpus/$target" -type f | wc -l)
        crashes=0
        [[ "$(cat "$out/$target.status")" == 0 ]] || crashes=1
        echo "| \`$target\` | $runs | $rate | $corpus | $crashes |"
    done
} | tee "$out/last.md"

# Outside the pipeline above (its block runs in a subshell).
failed=()
for target in $targets; do
    [[ "$(cat "$out/$target.status")" == 0 ]] || failed+=("$target")
done
if ((${#failed[@]})); then
    echo "campaign: failing targets: ${failed[*]} (inputs in fuzz/artifacts/<target>/, logs in $out/)" >&2
    exit 1
fi
echo "campaign: no failures" >&2
