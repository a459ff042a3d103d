import os

from setuptools import find_packages, setup

package_name = 'zoo_sim'
# The checkout's worlds/ and models/ (model://ground_plane ...), installed so that a Gazebo or
# MuJoCo world resolves from an install space alone (zoo_sim.resources looks there).
ROOT = os.path.relpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))


def tree(top: str) -> list[tuple[str, list[str]]]:
    return [(os.path.join('share', package_name, os.path.relpath(d, ROOT)),
             [os.path.join(d, f) for f in sorted(files)])
            for d, _, files in sorted(os.walk(os.path.join(ROOT, top))) if files]


setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'zoo_sim': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        *tree('worlds'), *tree('models'),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='robozoo simulator node: SDF worlds, MuJoCo and Gazebo backends',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': ['simulator = zoo_sim.sim_node:main'],
        'robozoo.nodes': ['zoo_sim/simulator = zoo_sim.sim_node:Simulator'],
    },
)
