"""Shared helpers for robozoo robot descriptions (``<robot>_description`` packages).

Locate a description, run xacro with arguments validated against ``config/xacro_args.yaml``,
validate the URDF with libsdformat, check inertias and the description contract, and load the
result in pinocchio and MuJoCo. ``zoo_description_tools.testing.standard_checks`` bundles the
acceptance checks every description's tests run.
"""
from .contract import description_problems
from .errors import DescriptionError
from .generate import resolved_args, robot_name, run_xacro, xacro_path, xacro_to_urdf
from .locate import find_description, load_config
from .mujoco_model import floor_contacts, load_mujoco, mujoco_mass
from .pinocchio_model import frame_xyz, load_pinocchio, pinocchio_at, pinocchio_mass
from .sdformat_check import validate_with_sdformat
from .urdf_model import (Inertial, Joint, Link, UrdfModel, inertia_problems, parse_links_joints,
                         parse_urdf, total_mass)
from .xacro_args import ArgSpec, load_arg_specs

__all__ = [
    'ArgSpec', 'DescriptionError', 'Inertial', 'Joint', 'Link', 'UrdfModel',
    'description_problems', 'find_description', 'floor_contacts', 'frame_xyz', 'inertia_problems', 'load_arg_specs',
    'load_config', 'load_mujoco', 'load_pinocchio', 'mujoco_mass', 'parse_links_joints', 'parse_urdf',
    'pinocchio_at', 'pinocchio_mass', 'resolved_args', 'robot_name', 'run_xacro', 'total_mass', 'validate_with_sdformat',
    'xacro_path', 'xacro_to_urdf',
]
