# The two commands a user needs: `make lab` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV := .venv
# Jupyter refuses to run as root without this flag (CI and containers run as root).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test classroom bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[lab,test]"
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/00-start-here.ipynb $(ROOT_FLAG) $(LAB_ARGS)

VOILA_PORT ?= 8866
classroom: $(STAMP)
	$(BIN)/voila notebooks --port=$(VOILA_PORT) --no-browser --show_tracebacks=False $(VOILA_ARGS)

PYTEST_ARGS ?= -n 2
test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
