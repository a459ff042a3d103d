"""Lola-OP snake description: the spec's numbers (specs/snake.md 2.2-2.3), used by the tests to
check config/snake_model.yaml and by other packages."""
import math

MODULE_MASS = {'elastomer': 0.065, 'plain': 0.055, 'no_elastomer': 0.055}      # kg, spec 2.3
MODULE_INERTIA = {                                                            # kg m^2, Eqs 3.2 / 3.1
    'elastomer': (4.0849e-5, 3.0173e-5, 2.186e-5),
    'plain': (1.8792e-5, 1.2027e-5, 1.6152e-5),
    'no_elastomer': (1.8792e-5, 1.2027e-5, 1.6152e-5),
}
DEFAULT_MODULES = 16                                                          # spec 2.2
JOINT_LIMIT = math.radians(60.0)                                              # spec 2.2, R3


def joint_names(modules: int = DEFAULT_MODULES) -> list[str]:
    return [f'joint_{i}' for i in range(1, modules + 1)]
