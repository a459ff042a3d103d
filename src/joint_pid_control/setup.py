import glob

from setuptools import find_packages, setup

package_name = 'joint_pid_control'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'joint_pid_control': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config/keyframes', glob.glob('config/keyframes/*')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Per-joint PID velocity control, teleop and keyframe player',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'pid = joint_pid_control.pid_node:main',
            'keyframe_player = joint_pid_control.keyframe_player_node:main',
            'teleop = joint_pid_control.teleop_node:main',
        ],
        'robozoo.nodes': [
            'joint_pid_control/pid = joint_pid_control.pid_node:JointPidController',
            'joint_pid_control/keyframe_player = '
            'joint_pid_control.keyframe_player_node:KeyframePlayer',
            'joint_pid_control/teleop = joint_pid_control.teleop_node:KeyboardTeleop',
        ],
    },
)
