"""The state logger's default links are state_log's, the simulator's link_poses order."""
from zoo_runtime import parameter_schema

from snake_gaits import state_log


def test_schema_links_are_the_published_ones():
    schema = parameter_schema.load('snake_gaits', 'state_logger')
    assert schema.entries['links'].default == state_log.PUBLISHED_LINKS
