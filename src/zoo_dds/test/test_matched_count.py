"""Counting matched peers survives cyclonedds-python's race: ``get_matched_subscriptions`` /
``get_matched_publications`` size an array with one C call and fill it with a second; a peer
matched between the two makes the fill report more handles than the array holds, and the
list comprehension raises ``IndexError: invalid index`` (cyclonedds 11.0.1, cyclonedds/pub.py
and sub.py). It surfaced as a ``--processes`` run that ended with ``robozoo: error: invalid
index`` while its children were being discovered (1 run in ~20)."""
from zoo_dds.transport import matched_count


class Racy:
    """An entity whose first call lands in the race (a peer appeared mid-call)."""

    def __init__(self, races: int, handles: list[int]):
        self.races, self.handles = races, handles

    def get_matched_subscriptions(self):
        if self.races:
            self.races -= 1
            raise IndexError('invalid index')
        return list(self.handles)


def test_a_peer_matched_mid_call_is_counted_on_the_retry():
    assert matched_count(Racy(1, [7, 8, 9]).get_matched_subscriptions) == 3


def test_no_race_counts_at_once():
    assert matched_count(Racy(0, []).get_matched_subscriptions) == 0


def test_a_persistent_index_error_is_not_swallowed():
    import pytest
    with pytest.raises(IndexError):
        matched_count(Racy(1000, [1]).get_matched_subscriptions)
