"""Gait searches on scenarios: the simulator-backed evaluator of coupled_wave_gait's search
(``evaluator.ScenarioEvaluator``), the search run on the dispatcher (:mod:`.driver`:
``run_search``), the search command line (``bin/robozoo search``, also
``python -m zoo_experiments.gait_search``; :func:`cli.main`) and the gait-quality measurement of
a scenario's walk (``python -m zoo_experiments.gait_search.quality``). The search's bookkeeping
(strategies, journal, session) and the walk itself stay in coupled_wave_gait, which knows nothing
of scenarios; this is where a scenario and a search meet."""
