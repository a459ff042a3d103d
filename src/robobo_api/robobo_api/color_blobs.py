"""Colour blobs in an RGB image, reported as the Robobo app reports them (no ROS): for each
tracked colour the largest connected region of pixels of that colour, its centre in percent of
the image (x 0..100 left to right, y 0..100 top to bottom, robobopy's screen coordinates) and its
area in pixels of the full image (robobopy/utils/Blob.py: "size: the area of the blob measured in
pixels"). The app tracks green by default (robobopy Robobo.setActiveBlobs docstring) and
reports a colour as lost, with size 0, after ``lost_frames`` frames without it (robobopy
setAdvancedLostBlobParameters: frames = 5, minarea = 1000 by default).

Thresholds (HSV, hue in degrees; documented, not the app's, whose are not published): a pixel
belongs to a colour when its saturation >= MIN_SATURATION, its value >= MIN_VALUE and its hue
is in the colour's range. Connected regions are found on a mask reduced by ``DOWNSAMPLE`` in
each direction (4-connectivity); areas and centres are taken from the full-resolution pixels of
the chosen region.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HUE_RANGES: dict[str, tuple[tuple[float, float], ...]] = {   # degrees
    'red': ((0.0, 15.0), (345.0, 360.0)),
    'green': ((75.0, 165.0),),
    'blue': ((195.0, 255.0),),
    'custom': ((40.0, 70.0),),   # yellow unless configured
}
MIN_SATURATION = 0.45
MIN_VALUE = 0.2
DOWNSAMPLE = 4
# The app's default minarea is 1000 px at its own (undocumented) processing resolution; at the
# simulated 480 x 640 image 400 px lets the 6.4 cm ball be seen across the 80 cm arena's
# diagonal (839 px at 0.71 m, measured).
MIN_AREA_PX = 400
LOST_FRAMES = 5      # the app's default frames


@dataclass(frozen=True)
class Blob:
    color: str
    x: float       # percent of the width, 0 = left
    y: float       # percent of the height, 0 = top
    size: int      # pixels of the full image; 0 = lost


def saturated_hues(rgb: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
    """(row and column indices, hue in degrees) of the pixels saturated and bright enough to
    have a colour (HSV saturation >= MIN_SATURATION, value >= MIN_VALUE); hue is computed on
    those pixels only, which keeps a 480 x 640 frame at a few milliseconds."""
    r8, g8, b8 = rgb[..., 0], rgb[..., 1], rgb[..., 2]   # channel-wise: 30x faster than axis=-1
    v = np.maximum(np.maximum(r8, g8), b8)
    span = v.astype(np.int16) - np.minimum(np.minimum(r8, g8), b8)
    idx = np.nonzero((v >= MIN_VALUE * 255) & (span >= MIN_SATURATION * v) & (span > 0))
    px = rgb[idx].astype(np.float32)
    r, g, b = px[:, 0], px[:, 1], px[:, 2]
    vmax, d = px.max(axis=1), span[idx].astype(np.float32)
    h = np.where(vmax == r, (g - b) / d % 6.0,
                 np.where(vmax == g, (b - r) / d + 2.0, (r - g) / d + 4.0)) * 60.0
    return idx, h


def color_mask(shape: tuple[int, int], idx, hue: np.ndarray, color: str) -> np.ndarray:
    keep = np.zeros(hue.shape, dtype=bool)
    for lo, hi in HUE_RANGES[color]:
        keep |= (hue >= lo) & (hue < hi)
    mask = np.zeros(shape, dtype=bool)
    mask[idx[0][keep], idx[1][keep]] = True
    return mask


def largest_region(mask: np.ndarray) -> np.ndarray:
    """Boolean mask of the largest 4-connected region (all False when there is none):
    iterative label propagation (each pixel takes its neighbours' maximum label)."""
    if not mask.any():
        return mask
    labels = np.where(mask, np.arange(1, mask.size + 1).reshape(mask.shape), 0)
    while True:
        grown = labels.copy()
        grown[1:, :] = np.maximum(grown[1:, :], labels[:-1, :])
        grown[:-1, :] = np.maximum(grown[:-1, :], labels[1:, :])
        grown[:, 1:] = np.maximum(grown[:, 1:], labels[:, :-1])
        grown[:, :-1] = np.maximum(grown[:, :-1], labels[:, 1:])
        grown = np.where(mask, grown, 0)
        if np.array_equal(grown, labels):
            break
        labels = grown
    ids, counts = np.unique(labels[labels > 0], return_counts=True)
    return labels == ids[np.argmax(counts)]


def detect(rgb: np.ndarray, colors: tuple[str, ...] | list[str]) -> dict[str, Blob | None]:
    """The largest blob of each colour in ``rgb`` (None: no pixel of that colour)."""
    height, width = rgb.shape[:2]
    idx, hue = saturated_hues(rgb)
    out: dict[str, Blob | None] = {}
    k = DOWNSAMPLE
    for color in colors:
        full = color_mask((height, width), idx, hue, color)
        if not full.any():
            out[color] = None
            continue
        hs, ws = height // k * k, width // k * k
        coarse = full[:hs, :ws].reshape(hs // k, k, ws // k, k).any(axis=(1, 3))
        region = np.repeat(np.repeat(largest_region(coarse), k, axis=0), k, axis=1)
        pixels = np.zeros_like(full)
        pixels[:hs, :ws] = region
        pixels &= full
        ys, xs = np.nonzero(pixels)
        if len(xs) == 0:
            out[color] = None
            continue
        out[color] = Blob(color, float(100.0 * (xs.mean() + 0.5) / width),
                          float(100.0 * (ys.mean() + 0.5) / height), int(len(xs)))
    return out


class BlobTracker:
    """Per-colour reporting as the app does: a blob of at least ``min_area`` pixels is reported
    on every frame; after ``lost_frames`` frames without one, a single size-0 blob says lost."""

    def __init__(self, colors: tuple[str, ...] = ('green',), min_area: int = MIN_AREA_PX,
                 lost_frames: int = LOST_FRAMES):
        self.colors = tuple(colors)
        self.min_area = int(min_area)
        self.lost_frames = int(lost_frames)
        self._missing: dict[str, int] = {}

    def set_colors(self, colors: tuple[str, ...] | list[str]) -> None:
        unknown = [c for c in colors if c not in HUE_RANGES]
        if unknown:
            raise ValueError(f"unknown blob colour(s) {unknown}; expected {', '.join(HUE_RANGES)}")
        self.colors = tuple(colors)

    def update(self, rgb: np.ndarray) -> list[Blob]:
        """The blobs to report for this frame."""
        report = []
        for color, blob in detect(rgb, self.colors).items():
            if blob is not None and blob.size >= self.min_area:
                self._missing[color] = 0
                report.append(blob)
                continue
            missing = self._missing.get(color)
            if missing is None:  # never seen: nothing to report as lost
                continue
            self._missing[color] = missing + 1
            if missing + 1 == self.lost_frames:
                report.append(Blob(color, 0.0, 0.0, 0))
        return report
