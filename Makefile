# `make run` and `make test` are all the set-up a fresh machine needs.
# The Pi's own interpreter where there is one: Raspberry Pi OS Bookworm's python3 is Debian's
# 3.11.2, the floor, and Debian builds it with profile-guided optimisation (the suite takes a
# fifth less CPU on it than on a plain build of 3.11). Elsewhere, the python3 on the PATH.
SYSTEM_PYTHON := /usr/bin/python3
PYTHON ?= $(shell $(SYSTEM_PYTHON) -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && echo $(SYSTEM_PYTHON) || echo python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install only when the project metadata changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

run: $(VENV)/.installed
	$(BIN)/tabletop run

test: $(VENV)/.installed-test
	$(BIN)/ruff check --quiet .
	$(BIN)/mypy
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build *.egg-info

# An arm64 Raspberry Pi OS-like root (cached in .cache/pi-root) gets this tree installed
# by systemd/install.sh, then runs doctor --sim, a replay and bench --quick. Needs root.
.PHONY: pi-check
pi-check:
	tools/pi-check.sh
