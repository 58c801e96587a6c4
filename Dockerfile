# meio web server image: `docker compose up` uses it (see compose.yaml, docs/deploy.md).
# Two stages: build a wheel and install it into a virtualenv, then copy only the
# virtualenv into a slim runtime that runs as an unprivileged user.
#
# Build arguments (all optional; compose.yaml passes them from MEIO_* variables):
#   BASE_IMAGE           the Python 3.11 image of both stages (python:3.11-slim);
#                        any Debian-like image with `python` and its venv module will do
#   PIP_INDEX_URL, PIP_EXTRA_INDEX_URL, PIP_DEFAULT_TIMEOUT
#                        pip's settings for the build, where PyPI is reached another way
#   EXTRA_CA_CERTS       PEM certificates pip trusts besides the image's own (a TLS
#                        proxy's CA); used by the build stage only, never in the image
#   MEIO_REVISION        a label naming the build (org.opencontainers.image.revision)
ARG BASE_IMAGE=python:3.11-slim

FROM ${BASE_IMAGE} AS build
ARG PIP_INDEX_URL=""
ARG PIP_EXTRA_INDEX_URL=""
ARG PIP_DEFAULT_TIMEOUT=""
ARG EXTRA_CA_CERTS=""
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# PyICU (the username look-alike check) is built from source against Debian's ICU
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends g++ pkg-config libicu-dev >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md requirements.lock ./
# The dependencies first, in a layer of their own (an empty package stands in for meio),
# so that a change of the source alone reuses it. An argument left empty is unset, so
# that pip keeps its default for it.
RUN set -eu; \
    [ -n "$PIP_INDEX_URL" ] || unset PIP_INDEX_URL; \
    [ -n "$PIP_EXTRA_INDEX_URL" ] || unset PIP_EXTRA_INDEX_URL; \
    [ -n "$PIP_DEFAULT_TIMEOUT" ] || unset PIP_DEFAULT_TIMEOUT; \
    if [ -n "$EXTRA_CA_CERTS" ]; then \
        cat /etc/ssl/certs/ca-certificates.crt >/tmp/pip-ca.pem; \
        printf '%s\n' "$EXTRA_CA_CERTS" >>/tmp/pip-ca.pem; \
        export PIP_CERT=/tmp/pip-ca.pem; \
    fi; \
    python -m venv /opt/meio; \
    /opt/meio/bin/pip install --quiet --upgrade pip setuptools wheel; \
    mkdir -p src/meio; \
    touch src/meio/__init__.py; \
    /opt/meio/bin/pip install --quiet -c requirements.lock '.[web,tui]'; \
    rm -rf src /tmp/pip-ca.pem
COPY src ./src
# meio itself, built with the setuptools installed above: no network needed. setup.py
# is not copied, so the engine stays pure Python here (no mypyc, no C compiler in
# the slim image; the wheel of `python -m build` compiles it, docs/benchmarks.md)
RUN /opt/meio/bin/pip install --quiet --no-deps --no-build-isolation --force-reinstall .

FROM ${BASE_IMAGE}
ENV PATH=/opt/meio/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    NUMBA_CACHE_DIR=/opt/meio-numba \
    MEIO_LOG_FORMAT=json \
    MEIO_DRAIN_S=3
# ICU's shared libraries, which PyICU was built against (libicu72 on bookworm)
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends \
        "$(apt-cache search --names-only '^libicu[0-9]+$' | cut -d' ' -f1 | sort -V | tail -n1)" \
        >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/meio /opt/meio
# compile the numba core once, at build time, into a cache the server then loads
RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin meio \
 && mkdir -p "$NUMBA_CACHE_DIR" \
 && python -m meio.warm \
 && chown -R meio:meio "$NUMBA_CACHE_DIR"
USER meio
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2).status != 200)"]
STOPSIGNAL SIGTERM
# last, so that a new revision reuses every layer above
ARG MEIO_REVISION=""
LABEL org.opencontainers.image.revision=$MEIO_REVISION
ENTRYPOINT ["meio", "serve", "--host", "0.0.0.0", "--port", "8000"]
