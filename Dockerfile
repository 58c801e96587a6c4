# meio web server image: `docker compose up` uses it (see compose.yaml, docs/deploy.md).
# Two stages: build a wheel and install it into a virtualenv, then copy only the
# virtualenv into a slim runtime that runs as an unprivileged user.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN python -m venv /opt/meio \
 && /opt/meio/bin/pip install --upgrade pip \
 && /opt/meio/bin/pip install .

FROM python:3.11-slim
ENV PATH=/opt/meio/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    NUMBA_CACHE_DIR=/opt/meio-numba \
    MEIO_LOG_FORMAT=json \
    MEIO_DRAIN_S=3
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
ENTRYPOINT ["meio", "serve", "--host", "0.0.0.0", "--port", "8000"]
