"""Parameter sweeps of scenarios (``bin/robozoo sweep``; :mod:`.cli`): the grid (:mod:`.grid`),
the journal (:mod:`.journal`), one point in a worker (:mod:`.point`) and the table (:mod:`.table`).
The points run on the gait search's engines (``zoo_bringup.gait_search.engines``)."""
