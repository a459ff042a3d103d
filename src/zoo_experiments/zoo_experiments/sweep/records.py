"""The sweep's records in the one journal of searches and sweeps (coupled_wave_gait.search.journal:
a header line, then one JSON line per point appended with a single write, a torn last line cut
after a kill, a header that differs from the run's refused with the first difference named)::

    {"header": {"sweep": {"scenario": ..., "duration": ..., "seed": ...,
                          "parameters": {node.param: value, ...}}}}
    {"seq": 3, "set": ["sim.gravity=[0.0,0.0,-3.71]", "walker.duration=2.0"], "summary": {...}}

``seq`` numbers the records in the order they were run; a point is known by its ``set`` (the
``--set`` overrides, in any order), so a grid that grows or changes reuses the points it shares
with the journal. ``summary`` is what ``robozoo run`` writes to summary.json for that point.
"""
from __future__ import annotations

from coupled_wave_gait.search.journal import JOURNAL_NAME, Journal, record_frame_problem

__all__ = ['JOURNAL_NAME', 'record_problem', 'sweep_journal']


def sweep_journal(path) -> Journal:
    """The journal at ``path`` with sweep point records."""
    return Journal(path, record_problem=record_problem)


def record_problem(obj) -> str | None:
    problem = record_frame_problem(obj, ('set', 'summary'), 'sweep point record')
    if problem:
        return problem
    seq = obj['seq']
    if not (isinstance(obj['set'], list) and all(isinstance(s, str) for s in obj['set'])):
        return f'point {seq}: "set" is not a list of node.parameter=value strings'
    if not isinstance(obj['summary'], dict):
        return f'point {seq}: "summary" is not a mapping'
    return None
