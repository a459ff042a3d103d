import glob

from setuptools import find_packages, setup

package_name = 'dynamixel_bridge'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'dynamixel_bridge': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config', glob.glob('config/*')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Dynamixel bridge (dynamixel-sdk) and bus emulator on a pseudo-terminal',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'bridge = dynamixel_bridge.bridge_node:main',
            'dxl_emulator = dynamixel_bridge.emulator.cli:console_main',
            'emulator = dynamixel_bridge.emulator.emulator_node:main',
        ],
        'zoo_sim.backends': ['dynamixel = dynamixel_bridge.backend:DynamixelBackend'],
        'robozoo.nodes': [
            'dynamixel_bridge/bridge = dynamixel_bridge.bridge_node:DynamixelBridge',
            'dynamixel_bridge/emulator = dynamixel_bridge.emulator.emulator_node:DxlEmulator',
        ],
    },
)
