from setuptools import find_packages, setup

package_name = 'zoo_runtime'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    py_modules=['zoo_runtime_pytest_plugin'],
    package_data={package_name: ['interface_defs/*/*/*.msg', 'interface_defs/*/*/*.srv']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='rclpy API for robozoo nodes, real or embedded',
    license='Apache-2.0',
    tests_require=['pytest'],
    # the workspace's tests run embedded even where a sourced ROS 2 makes rclpy importable
    entry_points={'pytest11': ['zoo_runtime = zoo_runtime_pytest_plugin']},
)
