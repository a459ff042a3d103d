"""Writes the three stride CSVs (spec hoap2.md R19) into config/strides/:
``python -m grid_navigation.generate_strides [DIR]``. turn_pos/turn_neg are the turns at the
45° cap; the navigator solves each turn for its own angle with the same code."""
from __future__ import annotations

import sys
from pathlib import Path

from . import strides
from .steering import MAX_TURN


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / 'config' / 'strides'
    out.mkdir(parents=True, exist_ok=True)
    for name, (t, cols) in {'forward_step.csv': strides.forward_frames(),
                            'turn_pos.csv': strides.turn_frames(MAX_TURN),
                            'turn_neg.csv': strides.turn_frames(-MAX_TURN)}.items():
        (out / name).write_text(strides.to_csv(t, cols))
        print(out / name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
