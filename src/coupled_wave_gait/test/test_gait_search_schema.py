"""The gait_search node's schema declares SearchSettings' defaults (SearchSettings, shared with
the command line, owns them and their checks)."""
import dataclasses

from zoo_runtime import parameter_schema

from coupled_wave_gait.search.settings import SearchSettings


def test_schema_defaults_are_the_search_settings():
    schema = parameter_schema.load('coupled_wave_gait', 'gait_search')
    defaults = dataclasses.asdict(SearchSettings())
    for name, entry in schema.entries.items():
        assert (entry.default or ()) == (defaults[name] or ()), name
