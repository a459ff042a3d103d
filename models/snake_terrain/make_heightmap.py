"""Regenerate materials/textures/heightmap.png: gentle hills for the snake (specs/snake.md 10.4).

65 x 65 samples (Gazebo wants 2^n + 1), 8-bit grey; the world scales grey 0..255 to 0..0.12 m over
8 x 8 m (steepest slope about 8 degrees). Deterministic: sums of fixed sinusoids.
Run: python make_heightmap.py
"""
from pathlib import Path

import numpy as np
from PIL import Image

n = 65
x, y = np.meshgrid(np.linspace(0, 2 * np.pi, n), np.linspace(0, 2 * np.pi, n))
h = (np.sin(2 * x) * np.cos(1.5 * y) + 0.6 * np.sin(3 * y + 1.0) + 0.4 * np.cos(4 * x - y))
h = (h - h.min()) / (h.max() - h.min())
# flatten smoothly towards the centre, where the snake spawns (flat within 0.5 m)
r = np.hypot(x - np.pi, y - np.pi) / np.pi * 4.0  # metres from the centre
w = np.clip((r - 0.5) / 1.5, 0.0, 1.0) ** 2
h = h[n // 2, n // 2] + (h - h[n // 2, n // 2]) * w
out = Path(__file__).parent / 'materials' / 'textures' / 'heightmap.png'
Image.fromarray(np.round(h * 255).astype(np.uint8), mode='L').save(out)
