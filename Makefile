# robozoo front door. Every target sets itself up first (tools/setup.sh is idempotent).
SHELL := /bin/bash
WS := $(CURDIR)
VENV := $(WS)/.venv
COLCON := $(VENV)/bin/colcon --log-base $(WS)/log
# ament_cmake interface packages need a real ROS 2 install; tools/setup.sh decides and records it.
COLCON_SEL = $(shell cat $(WS)/install/.robozoo_colcon_selection 2>/dev/null)
ENV := source $(WS)/tools/env.sh &&
# Every target runs the embedded world, also in a shell where a sourced ROS 2 makes rclpy import.
export ZOO_RUNTIME ?= embedded

.PHONY: setup build demo test bench clean

setup:
	@bash tools/setup.sh

build: setup

demo: setup
	@$(WS)/bin/robozoo run $${DEMO:-nao_walk} --record --report --output $(WS)/out/demo --overwrite

test: setup
	@$(ENV) $(COLCON) test --base-paths src $(COLCON_SEL) --event-handlers console_cohesion+ summary+ status- \
	  --return-code-on-test-failure --pytest-args -q -p no:cacheprovider --timeout 900; rc=$$?; \
	  $(COLCON) test-result --test-result-base $(WS)/build --all --verbose || rc=1; \
	  $(VENV)/bin/python -m pytest -q -p no:cacheprovider --timeout 900 tests || rc=1; \
	  exit $$rc

bench: setup
	@$(ENV) for b in benchmarks/bench_*.py; do echo "== $$b"; $(VENV)/bin/python $$b || exit 1; done

clean:
	rm -rf build install log out .venv
