from setuptools import find_packages, setup

package_name = 'zoo_experiments'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Searches, sweeps and studies on scenarios, and the one dispatcher they run on',
    license='Apache-2.0',
    tests_require=['pytest'],
)
