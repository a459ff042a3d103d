"""Load a URDF into pinocchio."""
from __future__ import annotations

from .errors import DescriptionError


def load_pinocchio(urdf_text: str, floating: bool = True):
    """(model, data) of the URDF, with a free-flyer root joint when ``floating``."""
    import pinocchio as pin

    try:
        if floating:
            model = pin.buildModelFromXML(urdf_text, pin.JointModelFreeFlyer())
        else:
            model = pin.buildModelFromXML(urdf_text)
    except (RuntimeError, ValueError) as exc:
        raise DescriptionError(f'URDF: pinocchio cannot load it: {" ".join(str(exc).split())}') from exc
    return model, model.createData()


def pinocchio_mass(model) -> float:
    return float(sum(inertia.mass for inertia in model.inertias))
