import numpy as np
import pytest

from zoo_description_tools.support import convex_hull_margin

SQUARE = np.array([[0, 0], [2, 0], [2, 2], [0, 2], [1, 1]])  # interior point is ignored


@pytest.mark.parametrize('p, margin', [((1, 1), 1.0), ((0.5, 1.0), 0.5), ((3, 1), -1.0),
                                       ((1, 2), 0.0)])
def test_margin_is_the_signed_distance_to_the_hull(p, margin):
    assert convex_hull_margin(SQUARE, np.array(p, dtype=float)) == pytest.approx(margin)
