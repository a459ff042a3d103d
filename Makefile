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

.PHONY: setup build demo test test-ros bench clean

setup:
	@bash tools/setup.sh

build: setup

demo: setup
	@$(WS)/bin/robozoo run $${DEMO:-nao_walk} --record --report --output $(WS)/out/demo --overwrite

test: setup
	@$(ENV) $(COLCON) test --base-paths src $(COLCON_SEL) --event-handlers console_cohesion+ summary+ status- \
	  --return-code-on-test-failure --pytest-args -q -p no:cacheprovider --timeout 900; rc=$$?; \
	  $(COLCON) test-result --test-result-base $(WS)/build --all --verbose || rc=1; \
	  $(VENV)/bin/python -m pytest -q -p no:cacheprovider --timeout 900 tests --ignore tests/ros || rc=1; \
	  bash tools/test_ros.sh --if-available || rc=1; \
	  exit $$rc

# The ROS tier alone (real rclpy, ros2 launch, the ros2 CLI, rosbag2): tools/test_ros.sh.
test-ros: setup
	@bash tools/test_ros.sh

bench: setup
	@$(ENV) for b in benchmarks/bench_*.py; do echo "== $$b"; $(VENV)/bin/python $$b || exit 1; done

clean:
	rm -rf build install log out .venv build_ros install_ros .ros2 .gz
