"""One sweep point, in a worker: the scenario with the point's ``--set`` overrides, run as
``robozoo run`` runs it (``runner.run_scenario``, no outputs), its summary returned as plain JSON
values. The base scenario travels with the runner (pickled), so a worker on another machine needs
the workspace's packages, not the driver's scenario file."""
from __future__ import annotations

import json
from typing import Any

from zoo_scenario.scenario import Scenario, apply_overrides


class PointRunner:
    def __init__(self, scenario: Scenario, duration: float, seed: int | None):
        self.scenario, self.duration, self.seed = scenario, duration, seed

    def __call__(self, overrides: list[str]) -> dict:
        from zoo_scenario.runner import run_scenario

        sc = apply_overrides(self.scenario, overrides)
        summary = run_scenario(sc, duration=self.duration, seed=self.seed)
        return json.loads(json.dumps(summary, default=_plain))


def _plain(x: Any) -> Any:
    if hasattr(x, 'tolist'):  # numpy scalars and arrays
        return x.tolist()
    return str(x)
