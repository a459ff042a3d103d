from glob import glob

from setuptools import find_packages, setup

package_name = 'unitree_udp'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'unitree_udp': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/examples', glob('examples/*.py')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Go1 UDP protocol of unitree_legged_sdk v3.8 and a simulated Go1 endpoint',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': ['go1_udp_endpoint = unitree_udp.endpoint_node:main'],
        'robozoo.nodes': [
            'unitree_udp/go1_udp_endpoint = unitree_udp.endpoint_node:Go1UdpEndpoint',
        ],
    },
)
