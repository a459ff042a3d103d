from setuptools import find_packages, setup

package_name = 'zoo_dds'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'zoo_dds': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='DDS bridge: scenario topics on Cyclone DDS with ROS 2 names, CDR and QoS',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': ['dds_bridge = zoo_dds.bridge_node:main'],
        'robozoo.nodes': ['zoo_dds/dds_bridge = zoo_dds.bridge_node:DdsBridge'],
    },
)
