# Two commands on a fresh machine: `make run` (gpu-advisor diagnose) and `make test` (lint + tests).
# Each creates the virtual environment on first use and reuses it after; it is rebuilt only when
# pyproject.toml changes. On a GPU machine, pick the torch build for your CUDA version, e.g.
#   make run TORCH="torch==2.13.0 --index-url https://download.pytorch.org/whl/cu130"

PYTHON ?= python3
VENV ?= .venv
TORCH ?= torch==2.13.0
ARGS ?=

# The file that proves the environment is complete: written last, after every install succeeded.
READY := $(VENV)/.gpu-advisor-ready

.PHONY: run test

run: $(READY)
	$(VENV)/bin/gpu-advisor diagnose $(ARGS)

test: $(READY)
	$(VENV)/bin/ruff check advisor tests benchmarks
	$(VENV)/bin/python -m pytest -q $(ARGS)

$(READY): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q $(TORCH)
	$(VENV)/bin/pip install -q -e ".[test]"
	touch $@
