from setuptools import find_packages, setup

package_name = 'robobo_api'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'robobo_api': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/examples', ['examples/global_test_robobopy.py']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description="The Robobo's real ROS interface, the Robobo Remote Access Protocol server and "
                'the calibration protocols on the simulator',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'robobo_api = robobo_api.api_node:main',
            'calibration = robobo_api.calibration_node:main',
            'robobo_remote = robobo_api.remote_server:main',
            'robobo_sim_remote = robobo_api.sim_server:main',
            'global_test = robobo_api.global_test_ros:main',
            'global_test_judge = robobo_api.global_test_judge:main',
        ],
        'robozoo.nodes': [
            'robobo_api/robobo_api = robobo_api.api_node:RoboboApi',
            'robobo_api/calibration = robobo_api.calibration_node:Calibration',
            'robobo_api/robobo_remote = robobo_api.remote_server:RoboboRemote',
            'robobo_api/robobo_sim_remote = robobo_api.sim_server:RoboboSimRemote',
            'robobo_api/global_test = robobo_api.global_test_ros:GlobalTestRos',
            'robobo_api/global_test_judge = robobo_api.global_test_judge:GlobalTestJudge',
        ],
    },
)
