#!/usr/bin/env bash
# Remake the benchmark documents that docs/rl.md's result tables are generated from
# (docs/bench/*.json), then the tables (bench/docs_tables.py). Every bot is deterministic
# given its seed, so the figures are the same on any machine; only elapsed_s differs.
#   nice -n 10 bash bench/docs_bench.sh          # all of them (about an hour on 2 shared cores)
#   bash bench/docs_bench.sh meio-4-learned      # one of them, by its file name
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python}
OUT=docs/bench
JOBS=${JOBS:-2}
mkdir -p "$OUT"

run() {  # run NAME ARGS...: meio bench ARGS --json into docs/bench/NAME.json
    local name=$1; shift
    if [[ -n "${ONLY:-}" && "$ONLY" != "$name" ]]; then return; fi
    echo "== $name" >&2
    "$PY" -m meio bench "$@" --seed 0 --jobs "$JOBS" --json > "$OUT/$name.json.tmp"
    mv "$OUT/$name.json.tmp" "$OUT/$name.json"
}

ONLY=${1:-}
run meio-4-learned --bots heuristic,random,learned,ppo --players 4 --deals 100
run meio-4-search --bots heuristic,random,learned,search:1 --players 4 --deals 40
for table in "meio 2" "meio 3" "meio 5" "meio 4 --partnership" "classic 2" "classic 3" \
             "classic 4" "classic 4 --partnership"; do
    set -- $table
    edition=$1 players=$2 extra=${3:-}
    name="$edition-$players${extra:+p}"
    run "$name" --bots heuristic,random,learned,ppo --edition "$edition" --players "$players" \
        $extra --deals 100
done
# the baselines' reference rows: each bot with the heuristic only, on the learners' 30
# deals (bench/baselines.py scores a learner's network so); the heuristic alone is its
# table of itself. The search levels and ISMCTS cost minutes a bot; JOBS=1 to leave a core.
mkdir -p "$OUT/baselines/bots"
for bot in heuristic random ppo learned search:1 search:2 search:4 ismcts:10; do
    with=$bot,heuristic
    [[ $bot == heuristic ]] && with=heuristic
    run "baselines/bots/${bot//:/-}" --bots "$with" --players 4 --deals 30 --reference heuristic
done
"$PY" bench/docs_tables.py
