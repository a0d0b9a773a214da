# The two commands a user needs: `make lab` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV := .venv
# Jupyter refuses to run as root without this flag (CI and containers run as root).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab lessons-copy fresh-lessons test test-quick lint types classroom classroom-forget bench \
  handouts locale clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[lab,test]"
	touch $(STAMP)

# `make lab` opens the learner's own copy of the lessons, so that JupyterLab's autosave (typed
# answers, outputs) never changes the shipped lessons in notebooks/. The copy (git-ignored) is
# made on first use, with every sub-folder and data file of notebooks/; it sits beside
# notebooks/, so a lesson's links to ../docs work in both.
# `make lab LESSONS_LANG=ru` opens the Russian copy, $(LESSONS_COPY)/ru/00-start-here.ipynb (issue
# 35): its kernel starts in that folder and so speaks Russian (ttrlib.i18n). A copy made before
# the language was shipped gets that language's folder added, nothing of the copy overwritten.
LESSONS := notebooks
LESSONS_COPY ?= my-lessons
LESSONS_LANG ?=
LESSONS_START := $(LESSONS_COPY)/$(if $(filter-out en,$(LESSONS_LANG)),$(LESSONS_LANG)/)00-start-here.ipynb
lab: $(STAMP) lessons-copy
	$(BIN)/jupyter lab $(LESSONS_START) $(ROOT_FLAG) $(LAB_ARGS)

lessons-copy:
	@if [ ! -e "$(LESSONS_COPY)" ]; then \
	  cp -R "$(LESSONS)" "$(LESSONS_COPY)" && \
	  echo "Made your own copy of the lessons in $(LESSONS_COPY)/ ($(LESSONS)/ stays as shipped)."; \
	fi
	@lang="$(filter-out en,$(LESSONS_LANG))"; if [ -n "$$lang" ]; then \
	  if [ ! -e "$(LESSONS)/$$lang/00-start-here.ipynb" ]; then \
	    echo "No lessons in '$$lang': $(LESSONS)/$$lang/00-start-here.ipynb is missing." >&2; exit 1; \
	  fi; \
	  if [ ! -e "$(LESSONS_COPY)/$$lang" ]; then \
	    cp -R "$(LESSONS)/$$lang" "$(LESSONS_COPY)/$$lang" && \
	    mkdir -p "$(LESSONS_COPY)/locale" && \
	    cp -n "$(LESSONS)/locale/languages.toml" "$(LESSONS_COPY)/locale/" && \
	    echo "Added the lessons in '$$lang' to your copy: $(LESSONS_COPY)/$$lang/"; \
	  fi; \
	fi

# Start again from the shipped lessons: the old copy is moved aside (never deleted), named with
# the date and time, and a fresh copy is made.
fresh-lessons:
	@if [ -e "$(LESSONS_COPY)" ]; then \
	  old="$(LESSONS_COPY)-$$(date +%Y%m%d-%H%M%S)"; \
	  mv "$(LESSONS_COPY)" "$$old" && echo "Your old copy is now in $$old/"; \
	fi
	@$(MAKE) --no-print-directory lessons-copy LESSONS_COPY="$(LESSONS_COPY)"

# The classroom app serves the shipped lessons with the settings in classroom/voila.py (read
# that file for each one). For a class opening one lesson together, start a kernel ahead of
# time for every learner: `make classroom CLASS_LESSON=01-card-splits.ipynb CLASS_SIZE=30`.
# It listens on this machine only; for learners on other machines add
# VOILA_ARGS=--Voila.ip=0.0.0.0 CLASS_IP=0.0.0.0 . The kernels start in notebooks/, as in JupyterLab.
# Beside it runs the class server (ttrlib.server: tables, the teacher's room, the class's
# records) on CLASS_PORT with its data in CLASS_DATA; it prints the teacher's login link. The
# lesson kernels (Voila's children) find it through TTR_CLASS_SERVER and read the class secret
# from TTR_CLASS_SECRET_FILE; a learner's page never holds either.
VOILA_PORT ?= 8866
CLASS_PORT ?= 8867
CLASS_IP ?= 127.0.0.1
CLASS_DATA ?= classroom-data
# Where learners reach the lessons: the seats' links (lesson 08) point there. For learners on
# other machines, this machine's address on the network, e.g. http://192.168.1.20:8866 .
CLASS_LESSONS_URL ?= http://localhost:$(VOILA_PORT)
CLASS_LESSON ?=
CLASS_SIZE ?= 0
# Once the class has its kernels, the pool is refilled with this many spare kernels (late
# learners, reloads), not a second class's worth (classroom/pool_culling.py).
CLASS_SPARE ?= 3
# Kernels kept waiting for lesson 08, a table's learners opening their seats together
# (classroom/voila.py; about 100 MB each): 4 unless set, 1 for none beyond the usual one.
TABLE_POOL ?= 4
# The class's language (CLASS_LANG=ru): its translated lessons get a waiting kernel too; another
# language's lessons start a kernel when a learner opens them (classroom/voila.py).
CLASS_LANG ?=
classroom: $(STAMP)
	@$(BIN)/python -m ttrlib.server --port $(CLASS_PORT) --ip $(CLASS_IP) --data "$(CLASS_DATA)" \
	  --lessons "$(CLASS_LESSONS_URL)" & \
	  server=$$!; trap 'kill $$server 2>/dev/null' EXIT INT TERM; \
	  cd $(LESSONS) && TTR_CLASS_LESSON="$(CLASS_LESSON)" TTR_CLASS_SIZE="$(CLASS_SIZE)" TTR_CLASS_SPARE="$(CLASS_SPARE)" TTR_TABLE_POOL="$(TABLE_POOL)" TTR_CLASS_LANG="$(CLASS_LANG)" \
	  TTR_CLASS_SERVER="http://127.0.0.1:$(CLASS_PORT)" \
	  TTR_CLASS_SECRET_FILE="$(abspath $(CLASS_DATA))/class-secret" \
	  $(abspath $(BIN))/voila . --Voila.config_file_paths=$(CURDIR)/classroom \
	  --port=$(VOILA_PORT) --Voila.port_retries=0 --no-browser $(VOILA_ARGS)

# The class's records (every Check and "Show the answer" of the lessons, no names) stay in
# CLASS_DATA until the teacher forgets them: this asks first, then deletes them all.
classroom-forget: $(STAMP)
	@$(BIN)/python -m ttrlib.server.records forget --data "$(CLASS_DATA)"

PYTEST_ARGS ?= -n 2
# The hub tests find the Hub's proxy (configurable-http-proxy), which .ci/run installs with npm
# into .venv/node_modules, on the PATH.
test: $(STAMP)
	PATH="$(CURDIR)/$(VENV)/node_modules/.bin:$$PATH" $(BIN)/python -m pytest $(PYTEST_ARGS)

# A contributor's loop: every test that needs no browser, notebook kernel, Hub, PostgreSQL,
# network, server process or worker processes (the markers are in pyproject.toml; server,
# network and slow are set by tests/conftest.py). `make test` stays the whole suite, as CI runs.
# It runs no notebook, so the nbmake plugin is not loaded (its import, nbformat and jsonschema
# building a grammar, costs each of the three processes about 3 CPU-seconds); TTR_QUICK=1 runs
# the hypothesis tests with fewer examples (tests/quick_profile.py; `make test` runs them all).
# A loop runs again and again: pytest keeps its rewritten test modules (and Python its bytecode)
# in __pycache__ even where PYTHONDONTWRITEBYTECODE is set, which halves the collection.
# Its tests are short and many: xdist's worksteal hands out the last ones as workers free up
# (the default load split left one worker finishing alone: 120 s against 106 s here).
QUICK := not (browser or notebook or hub or server or network or slow)
QUICK_ARGS ?= -n 2 --dist worksteal
test-quick: $(STAMP)
	TTR_QUICK=1 env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest $(QUICK_ARGS) -p no:nbmake -m "$(QUICK)"

# What CI checks before the tests: ruff, and the notebooks stored without outputs.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/nbstripout --verify notebooks/*.ipynb notebooks/*/*.ipynb

# mypy on ttrlib/: its default mode, and the engine core as `mypy --strict` checks it (the
# [[tool.mypy.overrides]] block of pyproject.toml).
types: $(STAMP)
	$(BIN)/mypy

# The rules cheat-sheet and the glossary as printable HTML pages (generated from the rules reference).
handouts: $(STAMP)
	$(BIN)/python -m ttrlib.lessons.handouts build/handouts

# The translations (issue 35, docs/ru/README.md): the templates ttrlib/locale/ttrlib.pot (pybabel
# extract over babel.cfg) and notebooks/locale/lessons.pot (one message per Markdown paragraph),
# every catalogue updated from them, the library's compiled (.mo, committed), and the translated
# lessons built into notebooks/<lang>/; it names every paragraph still untranslated.
locale: $(STAMP)
	$(BIN)/python -m ttrlib.lessons.nb_i18n

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
