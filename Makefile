# The two set-up commands of the README. Both create and fill .venv on first use
# (and again whenever pyproject.toml changes); only python3 and make are needed.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH_VERSION := 2.13.0

CHROMIUM := /usr/bin/chromium

.PHONY: run test bench clean browser docs

$(STAMP): pyproject.toml
	@echo "setting up $(VENV): a virtual env, then torch and the lab's packages (pip is quiet: a few minutes)"
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch pinned first: the CPU build on this machine's disk. Left to itself,
	# stable-baselines3 would pull an unpinned torch, a multi-GB CUDA build.
	@echo "installing torch $(TORCH_VERSION) (CPU build) into $(VENV) ..."
	$(PY) -m pip install --quiet torch==$(TORCH_VERSION)
	@echo "installing the lab (editable) with numpy, numba, stable-baselines3, pettingzoo, ray and the test tools ..."
	$(PY) -m pip install --quiet -e ".[test,ray]"
	@echo "installed: $(VENV)/bin/sixnimmt"
	touch $(STAMP)

run: $(STAMP)  ## the main job: the standard 4-player tournament (report and plots in out/standard/)
	rm -rf out/standard
	$(VENV)/bin/sixnimmt tournament --workers 2 --out out/standard

test: $(STAMP) browser  ## the linter (pyproject.toml's [tool.ruff]), then the test suite
	$(VENV)/bin/ruff check .
	# two workers, whole files each (tests/conftest.py: the groups, and the kernels compiled first)
	$(PY) -m pytest -q -n 2 --dist loadgroup --durations=15

# The browser tests of `sixnimmt serve` drive Debian's chromium (Playwright's own browser
# download cannot be reached here). Installed when missing, where apt-get can (root).
browser:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
		|| echo "chromium could not be installed: the browser tests will skip (and fail under CI)"

bench: $(STAMP)  ## engine speed against the C limit, at 4 and 10 players
	$(VENV)/bin/sixnimmt bench engine --players 4
	$(VENV)/bin/sixnimmt bench engine --players 10

docs: $(STAMP)  ## the documentation site on http://127.0.0.1:8001/, rebuilt on every edit
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8001

clean:
	rm -rf $(VENV) build dist site *.egg-info
