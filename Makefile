# Two commands do everything on a fresh machine:
#   make run    set up and start meio: the web server at http://127.0.0.1:8000/
#               (SQLite under the user data directory; ARGS='--port 9000' to change)
#   make test   set up and run every check (ruff, mypy --strict, the client's JS unit
#               tests, pytest); pytest runs
#               beside a Docker engine that scripts/docker-stack.sh starts (as root:
#               it installs docker.io and Compose v2 from Debian) and stops, so that the
#               image is built and the compose stack tested; STACK=0 runs without it
#               (the stack tests then skip)
VENV    ?= .venv
PYTHON  ?= python3
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp
STACK   ?= 1

.PHONY: run test venv system system-build browser-tools lint typecheck pytest jstest demo clean

# pyproject.toml states lower bounds (meio is a library); requirements.lock holds the
# exact versions the tests pass with (scripts/lock.py), installed here as constraints;
# the Debian packages first (PyICU builds against the system's ICU)
$(STAMP): pyproject.toml requirements.lock | system-build
	$(PYTHON) -m venv $(VENV)
	MEIO_PURE=1 $(PY) -m pip install --quiet --disable-pip-version-check \
		-c requirements.lock -e '.[dev,web,tui,lab,rl,cluster,jax]'
	$(PY) -m meio.warm
	touch $(STAMP)

venv: $(STAMP)

# what building the virtual environment needs (PyICU builds against the system's ICU)
system-build:
	bash scripts/system-deps.sh --build

system:
	bash scripts/system-deps.sh

# axe-core, which the browser tests inject into the pages (pinned in its lock file)
AXE := tests/web/a11y/node_modules/axe-core/axe.min.js
$(AXE): tests/web/a11y/package.json tests/web/a11y/package-lock.json
	npm ci --prefix tests/web/a11y --no-audit --no-fund --loglevel=error
	touch $(AXE)

browser-tools: system $(AXE)

# the browser client's unit tests: vitest in jsdom (pinned in tests/web/js's lock file)
VITEST := tests/web/js/node_modules/vitest/vitest.mjs
$(VITEST): tests/web/js/package.json tests/web/js/package-lock.json
	npm ci --prefix tests/web/js --no-audit --no-fund --loglevel=error
	touch $(VITEST)

jstest: $(VITEST)
	npm test --prefix tests/web/js

run: $(STAMP)
	$(VENV)/bin/meio serve $(ARGS)

demo: $(STAMP)
	$(VENV)/bin/meio demo

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
ifeq ($(STACK),0)
	bash scripts/run-pytest.sh
else
	bash scripts/docker-stack.sh run bash scripts/run-pytest.sh
endif

test: $(STAMP) system browser-tools lint typecheck jstest pytest

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache tests/web/a11y/node_modules tests/web/js/node_modules
