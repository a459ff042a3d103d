import glob

from setuptools import find_packages, setup

package_name = 'grid_navigation'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'grid_navigation': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config/strides', glob.glob('config/strides/*.csv')),
        ('share/' + package_name + '/rviz', glob.glob('rviz/*.rviz')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='HOAP-2 grid navigation: occupancy grids from SDF worlds, A*, keyframe strides',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'map_server = grid_navigation.map_server_node:main',
            'navigator = grid_navigation.navigator_node:main',
        ],
        'robozoo.nodes': [
            'grid_navigation/map_server = grid_navigation.map_server_node:MapServer',
            'grid_navigation/navigator = grid_navigation.navigator_node:GridNavigator',
        ],
    },
)
