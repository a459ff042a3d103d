"""Physical constants the workspace shares (issue 26: one owner per concept).

``STANDARD_GRAVITY`` is Earth's g everywhere in robozoo: the simulator's default world, the
Go1 optimizer's Earth preset, the tracker's default, the ZMP walk's pendulum and the gravity of
every pinocchio model ``load_pinocchio`` builds (pinocchio's own default is 9.81). It is the
standard acceleration of gravity g_n = 9.80665 m/s^2 (CGPM 1901, ISO 80000-3), also TOWR's
hard-coded value; specs/go1.md §6.1 and deviation 15 ("use 9.80665 everywhere in the
workspace", against the Unitree Gazebo world's 9.81). No thesis of the zoo needs another Earth
value: the snake spec's "9.81 (standard)" (specs/snake.md deviation 10) is the same standard
rounded, and the Nao thesis states none (specs/nao.md).
"""
from __future__ import annotations

STANDARD_GRAVITY = 9.80665                        # m/s^2, |g| on Earth
EARTH_GRAVITY = (0.0, 0.0, -STANDARD_GRAVITY)     # m/s^2, the world's gravity vector (z up)
