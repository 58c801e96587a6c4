# meio-local/python: a stand-in for python:3.11-slim made from Debian 12's packages, for
# machines that reach Debian's archive but no container registry (scripts/docker-stack.sh).
# Debian 12's python3 is 3.11; python-is-python3 gives the `python` command, and
# python3-dev the headers that python:3.11-slim carries too (PyICU compiles against them).
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        python3 python3-venv python3-dev python-is-python3 \
 && rm -rf /var/lib/apt/lists/*
CMD ["python3"]
