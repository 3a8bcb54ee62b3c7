# The two commands a newcomer needs:
#   make demo   - create .venv, install rhetorica with the embedded model, run the demo study
#   make test   - install what the tests need and run them
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test install-demo install-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The validation extra pins torch==2.13.0, the CPU build (see README).
install-demo: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[embedded,validation]"

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[embedded,validation,openai,anthropic,google,test]"
	bash scripts/install-test-system-deps.sh

demo: install-demo
	$(BIN)/rhetorica demo

test: install-test
	$(BIN)/python -m pytest
