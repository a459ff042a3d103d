"""Regenerate worlds/media/go1_steps_heightmap.png, the heightmap of worlds/go1_steps.sdf.

129 x 129 samples (Gazebo wants 2^n + 1), 8-bit grey; the world maps grey 0..255 to 0..0.06 m
over 3 m (x) by 2 m (y), centred at (1.2, 0): flat at z = 0 for x < 0.80 m, a 6 cm step whose
edge is a cosine blend 0.15 m wide (0.80-0.95 m), then flat at 0.06 m. The edge is smooth so
that the optimizer's cubic B-spline through the samples and the simulator's piecewise-linear
surface agree within 1 mm (curvature 13 1/m x (2.3 cm)^2 / 8). Deterministic.
Run: python src/trajectory_optimizer/scripts/make_go1_steps_heightmap.py
"""
from pathlib import Path

import numpy as np
from PIL import Image

N = 129
SIZE_X, CENTRE_X = 3.0, 1.2
EDGE_START, EDGE_WIDTH = 0.80, 0.15

x = CENTRE_X + np.linspace(-SIZE_X / 2, SIZE_X / 2, N)
s = np.clip((x - EDGE_START) / EDGE_WIDTH, 0.0, 1.0)
profile = 0.5 * (1.0 - np.cos(np.pi * s))  # 0 before the edge, 1 after
grey = np.round(np.tile(profile, (N, 1)) * 255).astype(np.uint8)  # rows along y: all alike
out = Path(__file__).resolve().parents[3] / 'worlds' / 'media' / 'go1_steps_heightmap.png'
Image.fromarray(grey, mode='L').save(out)
print(out)
