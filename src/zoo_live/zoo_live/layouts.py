"""Foxglove layouts per robot, in the JSON the Foxglove app exports and imports (``configById``,
``layout``): a 3D panel with the robot model from ``/<robot>/robot_description`` posed by TF,
plots of the joint states and of the metrics, and the raw metrics message.

The shipped files ``config/foxglove/<robot>.json`` are made by ``tools/foxglove_layouts.py``
(which runs each robot's stand scenario for its joint names); tests/test_foxglove_layouts.py
checks they are up to date.
Topics are those of a robot named like its description (``go1_description`` -> ``/go1/...``), as
the shipped scenarios name them.
"""
from __future__ import annotations

import json

# robot (description package without _description) -> a scenario with it, for its joints
STAND_SCENARIOS = {'go1': 'go1_stand', 'hoap2': 'hoap2_stand', 'nao': 'nao_stand',
                   'robobo': 'robobo_stand', 'snake': 'snake_stand'}
METRICS = ('drift_xy', 'min_base_height', 'max_tilt_deg', 'yaw_change_deg')


def _plot(title: str, paths: list[tuple[str, str]]) -> dict:
    return {'foxglovePanelTitle': title, 'paths': [
        {'value': value, 'label': label, 'enabled': True, 'timestampMethod': 'receiveTime'}
        for value, label in paths],
        'showLegend': True, 'legendDisplay': 'left', 'isSynced': True, 'xAxisVal': 'timestamp',
        'followingViewWidth': 10}


def _three_d(robot: str) -> dict:
    base = f'{robot}/base_link'
    return {
        'foxglovePanelTitle': f'{robot} (robot_description + /tf)',
        'followTf': base, 'followMode': 'follow-position',
        'scene': {'transforms': {'showLabel': False, 'axisScale': 0.5}},
        'transforms': {f'frame:{base}': {'visible': True}},
        'topics': {'/tf': {'visible': True}, '/tf_static': {'visible': True}},
        'layers': {
            'grid': {'layerId': 'foxglove.Grid', 'instanceId': 'grid', 'label': 'Grid',
                     'visible': True, 'frameId': 'world', 'size': 10, 'divisions': 20,
                     'lineWidth': 1, 'color': '#248eff', 'position': [0, 0, 0],
                     'rotation': [0, 0, 0], 'order': 1},
            f'urdf-{robot}': {'layerId': 'foxglove.Urdf', 'instanceId': f'urdf-{robot}',
                              'label': robot, 'visible': True, 'sourceType': 'topic',
                              'topic': f'/{robot}/robot_description', 'framePrefix': f'{robot}/',
                              'displayMode': 'auto', 'order': 2}},
        'cameraState': {'distance': 2.5, 'perspective': True, 'phi': 60, 'thetaOffset': 45,
                        'target': [0, 0, 0], 'targetOffset': [0, 0, 0],
                        'targetOrientation': [0, 0, 0, 1], 'fovy': 45, 'near': 0.01,
                        'far': 5000}}


def layout(robot: str, joints: list[str]) -> dict:
    """The layout of robot ``robot`` whose ``joint_states`` name ``joints`` in this order."""
    js = f'/{robot}/joint_states'
    ids = {'3d': f'3D!{robot}', 'pos': 'Plot!positions', 'vel': 'Plot!velocities',
           'metrics': 'Plot!metrics', 'raw': 'RawMessages!metrics'}
    config = {
        ids['3d']: _three_d(robot),
        ids['pos']: _plot('joint positions (rad)',
                          [(f'{js}.position[{i}]', j) for i, j in enumerate(joints)]),
        ids['vel']: _plot('joint velocities (rad/s)',
                          [(f'{js}.velocity[{i}]', j) for i, j in enumerate(joints)]),
        ids['metrics']: _plot('metrics', [(f'/{robot}/metrics.{m}', m) for m in METRICS] + [
            (f'/{robot}/odometry/ground_truth.pose.pose.position.z', 'base height')]),
        ids['raw']: {'foxglovePanelTitle': 'metrics message', 'topicPath': f'/{robot}/metrics',
                     'expansion': 'all'},
    }
    mosaic = {'direction': 'row', 'splitPercentage': 50, 'first': ids['3d'],
              'second': {'direction': 'column', 'splitPercentage': 33,
                         'first': ids['pos'],
                         'second': {'direction': 'column', 'splitPercentage': 50,
                                    'first': ids['vel'],
                                    'second': {'direction': 'row', 'splitPercentage': 60,
                                               'first': ids['metrics'], 'second': ids['raw']}}}}
    return {'configById': config, 'globalVariables': {}, 'userNodes': {}, 'layout': mosaic}


def text(robot: str, joints: list[str]) -> str:
    return json.dumps(layout(robot, joints), indent=2) + '\n'
