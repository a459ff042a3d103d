import glob

from setuptools import find_packages, setup

package_name = 'snake_gaits'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'snake_gaits': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config', glob.glob('config/*')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Serpenoid snake gaits, angle-file playback and the state log',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'state_logger = snake_gaits.state_logger_node:main',
        ],
        'robozoo.nodes': [
            'snake_gaits/state_logger = snake_gaits.state_logger_node:StateLogger',
        ],
        'gait_player.generators': [
            'snake_gait = snake_gaits.player_plugin:snake_gait',
        ],
    },
)
