# Réussite: `make serve` runs the site, `make test` runs every check. Both set up what they need.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: serve test check check-fast browser bench clean

$(STAMP): pyproject.toml setup.py src/reussite/solver/_core.c $(wildcard src/reussite/solver/csrc/*.c)
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/reussite serve

# lint, types, and a built C core no older than its sources
check: $(STAMP)
	@# the C core is built optionally (a machine without a compiler still runs the site): a
	@# compile error would leave an older core in place, and the tests would test that one
	@so=$$(ls src/reussite/solver/_core*.so 2>/dev/null | head -1); \
	if [ -z "$$so" ] || [ -n "$$(find src/reussite/solver -name '*.c' -newer "$$so")" ]; then \
	    echo "the solver's C core is missing or older than its sources:" \
	         "REUSSITE_CORE=required $(VENV)/bin/pip install -e . shows why"; exit 1; fi
	$(VENV)/bin/ruff check src tests bench scripts
	$(VENV)/bin/mypy src/reussite

# the whole suite: every layer, the browser included
test: check
	bash scripts/ensure-chromium
	$(VENV)/bin/pytest -n 2 --dist loadfile

# everyday work: the tests not marked slow (no browser, no extra processes), in under a minute
check-fast: check
	$(VENV)/bin/pytest -n 2 --dist loadfile -m "not slow"

browser: $(STAMP)
	bash scripts/ensure-chromium
	$(VENV)/bin/pytest -n 2 --dist loadfile tests/browser

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
