# The two commands a newcomer needs:
#   make demo   - create .venv, install rhetorica with the embedded model, run the demo study
#   make test   - install what the tests need and run them
# Both first install llama-cpp-python as a portable build (scripts/install_llama_cpp.py: compiled once
# per flag set into ~/.cache/rhetorica-wheels, about 10 min on 2 cores) and end the install with one
# real embedded decode, so a broken build stops here with a message instead of inside a study.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test install-demo install-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The validation extra pins torch==2.13.0, the CPU build (see README).
install-demo: $(BIN)/python
	$(BIN)/python scripts/install_llama_cpp.py install
	$(BIN)/python -m pip install --quiet -e ".[embedded,validation]"
	$(BIN)/python scripts/install_llama_cpp.py check

install-test: $(BIN)/python
	$(BIN)/python scripts/install_llama_cpp.py install
	$(BIN)/python -m pip install --quiet -e ".[embedded,validation,openai,anthropic,google,test]"
	bash scripts/install-test-system-deps.sh
	$(BIN)/python scripts/install_llama_cpp.py check

demo: install-demo
	$(BIN)/rhetorica demo

# The suite runs on every core (pytest-xdist): whole test files per worker, so that a file's
# module-scoped fixtures (compiled projects, headless Chromium, study runs) are built once.
test: install-test
	$(BIN)/python -m pytest -n auto --dist loadfile
