"""The acceptance checks every description test runs, for one or more variants:
``ign sdf -k`` on the URDF, valid inertias, the description contract, the total mass against the
spec (from the URDF, pinocchio and MuJoCo alike), and loading in pinocchio and MuJoCo."""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from .contract import description_problems
from .generate import resolved_args, robot_name, xacro_to_urdf
from .mujoco_model import load_mujoco, mujoco_mass
from .pinocchio_model import load_pinocchio, pinocchio_mass
from .sdformat_check import validate_with_sdformat
from .urdf_model import inertia_problems, total_mass


def standard_checks(package: str, variants: Sequence[Mapping[str, Any]], expected_mass: float,
                    rel_tol: float = 0.005) -> list[str]:
    """Run every standard check on each variant (xacro args) and return the URDF texts; raise
    AssertionError listing what is wrong. Parametrize over variants in the caller so that each
    variant is its own test."""
    urdfs = []
    for variant in variants:
        label = f'{package} {dict(variant) or "(defaults)"}'
        urdf = xacro_to_urdf(package, variant)
        validate_with_sdformat(urdf, name=robot_name(package))
        problems = inertia_problems(urdf)
        problems += description_problems(package, urdf,
                                         default_variant=is_default_variant(package, variant))
        assert not problems, f'{label}: ' + '; '.join(problems)
        masses = {'URDF': total_mass(urdf),
                  'pinocchio': pinocchio_mass(load_pinocchio(urdf)[0]),
                  'MuJoCo': mujoco_mass(load_mujoco(urdf))}
        for source, mass in masses.items():
            assert math.isclose(mass, expected_mass, rel_tol=rel_tol), (
                f'{label}: total mass by {source} is {mass:.6g} kg, the spec says '
                f'{expected_mass:.6g} kg (+-{rel_tol:.1%})')
        urdfs.append(urdf)
    return urdfs


def is_default_variant(package: str, variant: Mapping[str, Any]) -> bool:
    """True when ``variant`` resolves to the declared defaults of every argument."""
    return resolved_args(package, variant) == resolved_args(package, {})
