from setuptools import find_packages, setup

package_name = 'zmp_walk'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'zmp_walk': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='A ZMP walk for the Nao: LIPM centre of mass, flat feet with double support, '
                'analytic leg IK, inverse-dynamics feed-forward, PD joint commands',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'gait_player.generators': [
            'nao_zmp_walk = zmp_walk.player_plugin:nao_zmp_walk',
        ],
    },
)
