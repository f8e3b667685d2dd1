# Two commands on a fresh machine: `make run` serves, `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck clean messages catalogs

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP) catalogs
	$(BIN)/jackpot serve --host 127.0.0.1 --port 8000

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/jackpot

# Translations: English is the source; the other languages' catalogs live in
# src/jackpot/locale/<lang>/LC_MESSAGES/{messages,js}.po (server, browser) and are
# compiled to .mo here, so a fresh clone's `make run` serves every language.
LANGS := pt ms et sk
LOCALE := src/jackpot/locale
PO := $(foreach l,$(LANGS),$(LOCALE)/$(l)/LC_MESSAGES/messages.po $(LOCALE)/$(l)/LC_MESSAGES/js.po)
MO := $(PO:.po=.mo)
# The API's error helpers take a catalog message too (web/base/errors.py).
ERROR_KEYWORDS := -k bad_request -k unauthorized -k forbidden -k not_found -k conflict -k invalid -k ApiError:3 -k CountedError:3,4
EXTRACT := $(BIN)/pybabel extract --no-location --sort-output --no-wrap --omit-header

$(LOCALE)/%.mo: $(LOCALE)/%.po $(STAMP)
	$(BIN)/pybabel compile -i $< -o $@

catalogs: $(MO)

# After adding or changing text: refresh the templates and every language's .po, then
# translate the new entries (tests/i18n fails while one is missing) and compile.
messages: $(STAMP)
	$(EXTRACT) -F babel.cfg $(ERROR_KEYWORDS) -o $(LOCALE)/messages.pot .
	$(EXTRACT) -F js.cfg --no-default-keywords -k t -k tn:1,2 -o $(LOCALE)/js.pot .
	set -e; for d in messages js; do for l in $(LANGS); do \
	  f=$(LOCALE)/$$l/LC_MESSAGES/$$d.po; \
	  if [ -f $$f ]; then $(BIN)/pybabel -q update --no-wrap --no-fuzzy-matching --ignore-obsolete -D $$d -l $$l -i $(LOCALE)/$$d.pot -o $$f; \
	  else $(BIN)/pybabel -q init --no-wrap -D $$d -l $$l -i $(LOCALE)/$$d.pot -o $$f; fi; \
	done; done
	$(MAKE) catalogs

# PostgreSQL for the second pass of the web suite (this machine kind runs one there).
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test

# axe-core for the browser tests' accessibility check, pinned by the lock file.
AXE := tests/browser/node_modules/axe-core/axe.min.js
$(AXE): tests/browser/package.json tests/browser/package-lock.json
	npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
	touch $(AXE)

# Test processes per pass (pytest-xdist): one per core by default; TEST_WORKERS=0
# runs each pass in one process. A test file's tests share a process (loadfile):
# module-scoped fixtures are built once and a file's helpers keep their state.
TEST_WORKERS ?= auto
XDIST := -n $(TEST_WORKERS) --dist loadfile

# Browser tests run in their own pytest process: Playwright's sync API keeps an event
# loop running in the main thread, which the async web tests cannot share.
# PostgreSQL repeats the tests marked `pg` (races, group commit, quotas, pairing,
# migrations, odd text; tests/README.md), and a smoke set of the browser tests; the
# schemathesis run (tests/security/test_schemathesis.py, a couple of minutes) goes
# once, on PostgreSQL, where odd text used to break the most.
test: lint typecheck catalogs $(AXE)
	$(BIN)/pytest $(XDIST) --ignore=tests/browser --ignore=tests/security/test_schemathesis.py
	$(BIN)/pytest $(XDIST) tests/browser
	JACKPOT_TEST_DATABASE_URL=$(PG_TEST_URL) $(BIN)/pytest $(XDIST) -m pg --ignore=tests/browser
	JACKPOT_TEST_DATABASE_URL=$(PG_TEST_URL) $(BIN)/pytest $(XDIST) -m pg tests/browser

clean:
	rm -rf $(VENV) var $(MO)
