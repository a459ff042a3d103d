import glob
import os

from setuptools import find_packages, setup

package_name = 'zoo_bringup'
# The workspace's launch file, scenarios and parameter files live at the checkout's root (the
# embedded CLI finds them there); installing them makes `ros2 launch zoo_bringup <file>` and
# scenario names work from an install space alone. Paths relative to this file (colcon runs
# setup.py here).
ROOT = os.path.relpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'zoo_bringup': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        ('share/' + package_name + '/launch', sorted(glob.glob(f'{ROOT}/launch/*.launch.py'))),
        ('share/' + package_name + '/config', sorted(glob.glob(f'{ROOT}/config/*.yaml'))),
        ('share/' + package_name + '/config/scenarios',
         sorted(glob.glob(f'{ROOT}/config/scenarios/*.yaml'))),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='The robozoo application: CLI, launch and scenario files, demo nodes',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        # `ros2 run zoo_bringup <name>` under ROS 2.
        'console_scripts': [
            'robozoo = zoo_bringup.cli:main',
            'talker = zoo_bringup.demo_nodes:talker_main',
            'listener = zoo_bringup.demo_nodes:listener_main',
        ],
        # The same nodes for the embedded runner: executable name -> Node class.
        'robozoo.nodes': [
            'zoo_bringup/talker = zoo_bringup.demo_nodes:Talker',
            'zoo_bringup/listener = zoo_bringup.demo_nodes:Listener',
        ],
    },
)
