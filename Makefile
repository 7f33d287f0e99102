# Réussite: `make serve` runs the site, `make test` runs every check. Both set up what they need.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: serve test check unit browser bench clean

$(STAMP): pyproject.toml setup.py src/reussite/solver/_core.c
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/reussite serve

check: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy src/reussite

test: check
	bash scripts/ensure-chromium
	$(VENV)/bin/pytest -n 2 --dist loadfile

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
