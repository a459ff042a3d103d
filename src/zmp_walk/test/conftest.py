"""Shared fixtures: the Nao URDF as the simulator gets it (hip yaw-pitch joints independent, as in
the ZMP walk's scenario) and its pinocchio model with a floating base."""
import pytest


@pytest.fixture(scope='session')
def nao_urdf():
    from zoo_description_tools.generate import xacro_to_urdf
    return xacro_to_urdf('nao_description', {'hip_yaw_pitch': 'independent'})


@pytest.fixture(scope='session')
def nao_model(nao_urdf):
    from zoo_description_tools.pinocchio_model import load_pinocchio
    return load_pinocchio(nao_urdf, floating=True)[0]
