# The two set-up commands of the README. Both create and fill .venv on first use
# (and again whenever pyproject.toml changes); only python3 and make are needed.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH_VERSION := 2.13.0

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch pinned first: the CPU build on this machine's disk. Left to itself,
	# stable-baselines3 would pull an unpinned torch, a multi-GB CUDA build.
	$(PY) -m pip install --quiet torch==$(TORCH_VERSION)
	$(PY) -m pip install --quiet -e ".[test,ray]"
	touch $(STAMP)

run: $(STAMP)  ## the main job: the standard 4-player tournament (report and plots in out/standard/)
	rm -rf out/standard
	$(VENV)/bin/sixnimmt tournament --workers 2 --out out/standard

test: $(STAMP)  ## the test suite
	$(PY) -m pytest -q

bench: $(STAMP)  ## engine speed against the C limit, at 4 and 10 players
	$(VENV)/bin/sixnimmt bench engine --players 4
	$(VENV)/bin/sixnimmt bench engine --players 10

clean:
	rm -rf $(VENV) build *.egg-info
