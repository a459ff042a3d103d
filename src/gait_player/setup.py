from setuptools import find_packages, setup

package_name = 'gait_player'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'gait_player': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='The gait player: one node that plays every registered gait, the generator '
                'protocol, its entry-point registry and the walk evaluation',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'player = gait_player.player_node:main',
        ],
        'robozoo.nodes': [
            'gait_player/player = gait_player.player_node:GaitPlayer',
        ],
    },
)
