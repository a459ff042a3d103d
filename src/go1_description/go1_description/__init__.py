"""Unitree Go1 description: constants from specs/go1.md used by tests and by other packages."""

LEGS = ('FL', 'FR', 'RL', 'RR')
LEG_JOINTS = ('hip', 'thigh', 'calf')
# Canonical workspace joint order: FL, FR, RL, RR x (hip, thigh, calf) (specs/go1.md 12 #13).
JOINT_NAMES = tuple(f'{leg}_{j}_joint' for leg in LEGS for j in LEG_JOINTS)
FOOT_LINKS = tuple(f'{leg}_foot' for leg in LEGS)
# Unitree's stand pose, the same for every leg (specs/go1.md 2.2).
STAND_LEG = (0.0, 0.67, -1.3)
# Sum of all URDF link masses, rotors included, at upstream commit ca57a18 (specs/go1.md 2.2).
TOTAL_MASS = 13.1005
FOOT_RADIUS = 0.02
