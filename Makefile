# Two commands on a fresh machine: `make run` serves, `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/jackpot serve --host 127.0.0.1 --port 8000

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/jackpot/engine src/jackpot/fair src/jackpot/strategy

# PostgreSQL for the second pass of the web suite (this machine kind runs one there).
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test

# Browser tests run in their own pytest process: Playwright's sync API keeps an event
# loop running in the main thread, which the async web tests cannot share.
test: lint typecheck
	$(BIN)/pytest --ignore=tests/browser
	$(BIN)/pytest tests/browser
	JACKPOT_TEST_DATABASE_URL=$(PG_TEST_URL) $(BIN)/pytest tests/web
	JACKPOT_TEST_DATABASE_URL=$(PG_TEST_URL) $(BIN)/pytest tests/browser

clean:
	rm -rf $(VENV) var
