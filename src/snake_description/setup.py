from glob import glob

from setuptools import find_packages, setup

package_name = 'snake_description'
share = 'share/' + package_name

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        (share, ['package.xml', 'README.md']),
        (share + '/urdf', glob('urdf/*.xacro')),
        (share + '/config', glob('config/*.yaml')),
        (share + '/rviz', glob('rviz/*.rviz')),
        (share + '/meshes', glob('meshes/*.obj')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    description='Lola-OP snake description for robozoo',
    license='Apache-2.0',
    tests_require=['pytest'],
)
