#!/usr/bin/env bash
# Replaces the meio replicas one at a time with a freshly built image while the site
# serves (docs/deploy.md, "Updating"). Run it where compose.yaml is, after `git pull`:
#
#   deploy/rolling-upgrade.sh [docker compose options, e.g. -p NAME -f FILE]
#
# For each replica running now: one more replica is started on the new image and waited
# for until healthy, then the old one is stopped (SIGTERM: it reports `draining`, closes
# its WebSockets with 1012 and hands its tables' leases over; the browsers reconnect
# through the proxy with `since`) and removed. The service never has fewer replicas than
# it had, and at most one more.
set -euo pipefail
compose=(docker compose "$@")
"${compose[@]}" build --quiet meio
mapfile -t old < <("${compose[@]}" ps -q meio)
count=${#old[@]}
if ((count == 0)); then
    echo "rolling-upgrade: no meio replica runs; start the stack with docker compose up -d" >&2
    exit 1
fi
for id in "${old[@]}"; do
    # --no-recreate leaves the old replicas as they are; the one added uses the new image
    "${compose[@]}" up -d --no-deps --no-recreate --wait --scale "meio=$((count + 1))" meio
    docker stop --time 20 "$id" >/dev/null
    docker rm "$id" >/dev/null
    echo "rolling-upgrade: replaced ${id:0:12}" >&2
done
