"""Gait searches on scenarios: the simulator-backed evaluator of coupled_wave_gait's search
(``evaluator.ScenarioEvaluator``), the search command line (``bin/robozoo search``, also
``python -m zoo_bringup.gait_search``; :func:`cli.main`), the gait-quality measurement of a
scenario's walk (``python -m zoo_bringup.gait_search.quality``) and the engines that evaluate
candidates and sweep points (:mod:`.engines`: forked processes or Dask; :mod:`.distributed`: the
search on an engine). The search algorithms and the walk itself stay in coupled_wave_gait, which
knows nothing of scenarios; this is where a scenario and a search meet."""
