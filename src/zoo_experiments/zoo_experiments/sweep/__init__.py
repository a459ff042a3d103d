"""Parameter sweeps of scenarios (``bin/robozoo sweep``; :mod:`.cli`): the grid (:mod:`.grid`),
the records in the one journal (:mod:`.records`), one point in a worker (:mod:`.point`) and the
table (:mod:`.table`). The points run on the one dispatcher (``zoo_experiments.dispatch``)."""
