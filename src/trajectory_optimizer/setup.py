from glob import glob

from setuptools import find_packages, setup

package_name = 'trajectory_optimizer'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'trajectory_optimizer': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config/robots', glob('config/robots/*.yaml')),
    ],
    install_requires=['setuptools'],
    zip_safe=False,
    description='TOWR-style legged trajectory optimization in casadi + IPOPT',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'plan = trajectory_optimizer.cli:console_main',
            'plan_tracker = trajectory_optimizer.tracker_node:main',
        ],
        'robozoo.nodes': [
            'trajectory_optimizer/plan_tracker = trajectory_optimizer.tracker_node:PlanTracker',
        ],
    },
)
