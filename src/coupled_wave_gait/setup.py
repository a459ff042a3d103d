from setuptools import find_packages, setup

package_name = 'coupled_wave_gait'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'coupled_wave_gait': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Coupled-wave gaits: the Nao wave walk (gait-player plug-ins), quality, search',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'gait_search = coupled_wave_gait.search_node:main',
        ],
        'robozoo.nodes': [
            'coupled_wave_gait/gait_search = coupled_wave_gait.search_node:GaitSearch',
        ],
        'gait_player.generators': [
            'nao_wave_walk = coupled_wave_gait.player_plugin:nao_wave_walk',
            'nao_wave_walk_flat = coupled_wave_gait.player_plugin:nao_wave_walk_flat',
            'nao_wave_walk_smooth = coupled_wave_gait.player_plugin:nao_wave_walk_smooth',
        ],
    },
)
