import glob

from setuptools import find_packages, setup

package_name = 'zoo_bringup'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='robozoo scenarios, CLI, launch helpers and demo nodes',
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
