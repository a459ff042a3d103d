"""The Dynamixel bus emulator: servos with control tables (``servo``), the plants that move them
(``plants``: in memory, or the simulated robot's joints through ``sim_link_node``), instruction
dispatch and faults (``bus``), the pseudo-terminal with bus timing (``pty_server``), the CLI
(``cli``: ``bin/robozoo dxl-emulator``)."""
