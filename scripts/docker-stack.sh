#!/usr/bin/env bash
# The Docker engine that `make test` builds and runs the compose stack on, on a Debian 12
# machine where no container registry can be reached (see docs/deploy.md, "The stack
# test").
#
#   scripts/docker-stack.sh up     install what is missing, start dockerd, build the local
#                                  base images; prints `export ...` lines for the tests
#   scripts/docker-stack.sh down   stop the dockerd that `up` started
#   scripts/docker-stack.sh run CMD...
#                                  `up`, CMD with those variables set, then `down` when
#                                  this run started dockerd; exits with CMD's status
#
# Everything lives under MEIO_STACK_DIR (default /var/cache/meio-stack), kept between runs:
# the debootstrap tree, dockerd's data (the images and the build cache), its socket and
# log. The packages come from Debian only: docker.io and debootstrap from the machine's
# own release, Compose v2 from Debian 13's signed docker-compose package (Debian 12 has
# only Compose v1). The base images are made from Debian packages and get local names
# (meio-local/...), never an official image's name.
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${MEIO_STACK_DIR:-/var/cache/meio-stack}"
run="$dir/run"
sock="$run/docker.sock"
export DOCKER_HOST="unix://$sock"
suite=bookworm
mirror=http://deb.debian.org/debian

say() { echo "docker-stack: $*" >&2; }

need_root() {
    if [ "$(id -u)" != 0 ]; then
        say "needs root to $1"
        exit 1
    fi
}

install_packages() {
    local need=()
    command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
    command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
    if ((${#need[@]})); then
        need_root "install ${need[*]}"
        say "installing ${need[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    fi
    if ! docker compose version >/dev/null 2>&1; then
        need_root "install Compose v2"
        install_compose
    fi
}

# Compose v2 from Debian 13 (trixie): apt checks the release's signature against the
# Debian archive keyring and the package's hash, with its own lists under $dir so the
# machine's sources stay as they are; dpkg installs the one package (it needs only libc6).
install_compose() {
    local apt="$dir/apt-trixie"
    mkdir -p "$apt/lists/partial" "$apt/archives/partial"
    cat >"$apt/trixie.sources" <<EOF
Types: deb
URIs: $mirror
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    local opts=(-o "Dir::Etc::SourceList=$apt/trixie.sources" -o Dir::Etc::SourceParts=/nonexistent
                -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt"
                -o "Dir::Cache::Archives=$apt/archives" -o Acquire::Languages=none
                -o APT::Sandbox::User=root)
    say "installing Compose v2 from Debian 13's docker-compose package"
    apt-get "${opts[@]}" update -qq
    (cd "$apt" && rm -f docker-compose_*.deb && apt-get "${opts[@]}" download -qq docker-compose)
    dpkg -i "$apt"/docker-compose_*.deb >/dev/null
    docker compose version >/dev/null
}

engine_answers() {
    docker info >/dev/null 2>&1
}

start_engine() {
    if engine_answers; then
        return
    fi
    need_root "start dockerd"
    mkdir -p "$run" "$dir/docker"
    say "starting dockerd (data under $dir/docker, log $dir/dockerd.log)"
    # a new session (setsid): the engine outlives this script until `down` stops it
    setsid dockerd --data-root "$dir/docker" --exec-root "$run/exec" \
        --pidfile "$run/dockerd.pid" --host "$DOCKER_HOST" --storage-driver overlay2 \
        >>"$dir/dockerd.log" 2>&1 </dev/null &
    for _ in $(seq 150); do
        engine_answers && return
        sleep 0.2
    done
    tail -20 "$dir/dockerd.log" >&2
    say "dockerd did not answer within 30 s"
    exit 1
}

stop_engine() {
    local pidfile="$run/dockerd.pid"
    if [ ! -s "$pidfile" ]; then
        return
    fi
    local pid
    pid="$(cat "$pidfile")"
    if kill -0 "$pid" 2>/dev/null; then
        say "stopping dockerd ($pid)"
        kill -TERM "$pid"
        for _ in $(seq 150); do
            kill -0 "$pid" 2>/dev/null || return 0
            sleep 0.2
        done
        say "dockerd did not stop within 30 s"
        exit 1
    fi
}

# meio-local/debian:bookworm: a minimal Debian tree made by debootstrap and imported.
# The tree is kept (a finished one has .meio-complete), so a lost image is re-imported in
# seconds; the image is kept in dockerd's data root.
base_image() {
    local image="meio-local/debian:$suite"
    if docker image inspect "$image" >/dev/null 2>&1; then
        return
    fi
    local rootfs="$dir/rootfs-$suite"
    if [ ! -e "$rootfs/.meio-complete" ]; then
        need_root "run debootstrap"
        rm -rf "$rootfs"
        say "debootstrap $suite into $rootfs (about 2 minutes)"
        debootstrap --variant=minbase --include=ca-certificates "$suite" "$rootfs" "$mirror" \
            >"$dir/debootstrap.log" 2>&1 || { tail -20 "$dir/debootstrap.log" >&2; exit 1; }
        # what the slim Debian images do: no documentation, no apt cache kept
        rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
        touch "$rootfs/.meio-complete"
    fi
    say "importing $rootfs as $image"
    tar -C "$rootfs" --exclude=./.meio-complete -c . \
        | docker import --change 'CMD ["/bin/bash"]' - "$image" >/dev/null
}

# the stand-ins for python:3.11-slim, postgres:17 and caddy:2, from Debian's packages
# (deploy/local/*.Dockerfile); the build cache makes them instant once built
local_images() {
    local name
    for name in python postgres caddy; do
        docker build --build-arg "BASE_IMAGE=meio-local/debian:$suite" \
            -t "meio-local/$name" -f "deploy/local/$name.Dockerfile" deploy/local \
            >"$dir/build-$name.log" 2>&1 || { tail -30 "$dir/build-$name.log" >&2; exit 1; }
    done
}

# The host's pip settings that a build inside a container can use: an http(s) index (a
# file:// one or find-links folder is on this machine's disk only), the timeout, and the
# CA certificates added locally (the ones update-ca-certificates takes in), which pip
# needs when the way out re-signs TLS.
pip_exports() {
    local index extra
    index="$(python3 -m pip config get global.index-url 2>/dev/null || true)"
    index="${PIP_INDEX_URL:-$index}"
    extra="$(python3 -m pip config get global.extra-index-url 2>/dev/null || true)"
    extra="${PIP_EXTRA_INDEX_URL:-$extra}"
    case "$index" in http://*|https://*) ;; *) index="" ;; esac
    local kept=() url
    for url in $extra; do
        case "$url" in http://*|https://*) kept+=("$url") ;; esac
    done
    printf 'export MEIO_PIP_INDEX_URL=%q\n' "$index"
    printf 'export MEIO_PIP_EXTRA_INDEX_URL=%q\n' "${kept[*]:-}"
    printf 'export MEIO_PIP_DEFAULT_TIMEOUT=%q\n' "${PIP_DEFAULT_TIMEOUT:-}"
    local certs=""
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        certs="$(cat /usr/local/share/ca-certificates/*.crt)"
    fi
    printf 'export MEIO_PIP_CA_CERTS=%q\n' "$certs"
}

up() {
    local started
    started=$(date +%s)
    install_packages
    start_engine
    base_image
    local_images
    say "engine and base images ready in $(($(date +%s) - started)) s"
    printf 'export DOCKER_HOST=%q\n' "$DOCKER_HOST"
    echo "export MEIO_BASE_IMAGE=meio-local/python"
    echo "export MEIO_DB_IMAGE=meio-local/postgres"
    echo "export MEIO_PROXY_IMAGE=meio-local/caddy"
    echo "export MEIO_REQUIRE_DOCKER=1"
    pip_exports
}

case "${1:-}" in
    up)
        up
        ;;
    run)
        shift
        ((${#@})) || { echo "usage: scripts/docker-stack.sh run CMD..." >&2; exit 2; }
        # stop the engine on the way out (also when `up` or CMD fails) unless it ran before
        engine_answers || trap stop_engine EXIT
        exports="$(up)"
        eval "$exports"
        rc=0
        "$@" || rc=$?
        docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' 'meio-local/*' \
            | while read -r image size; do say "image $image: $size"; done
        exit "$rc"
        ;;
    down)
        stop_engine
        ;;
    *)
        echo "usage: scripts/docker-stack.sh up|down|run CMD..." >&2
        exit 2
        ;;
esac
