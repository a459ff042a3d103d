from setuptools import find_packages, setup

package_name = 'unitree_udp_bridge'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={'unitree_udp_bridge': ['params/*.yaml']},  # parameter schemas
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Go1 UDP bridge: joint topics <-> unitree_legged_sdk v3.8 low level, with safety',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': ['bridge = unitree_udp_bridge.bridge_node:main'],
        'robozoo.nodes': [
            'unitree_udp_bridge/bridge = unitree_udp_bridge.bridge_node:Go1UdpBridge',
        ],
        'zoo_sim.backends': ['go1_udp = unitree_udp_bridge.backend:Go1UdpBackend'],
    },
)
