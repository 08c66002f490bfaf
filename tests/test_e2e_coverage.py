"""The end-to-end coverage record (tests/e2e/coverage.py) survives being split between test
processes: what two processes hand on adds up to what one process would have recorded."""

from __future__ import annotations

from tests.e2e.coverage import Coverage, scenario_files


def share(**fields) -> Coverage:
    coverage = Coverage()
    coverage.merge(fields)
    return coverage


def test_two_processes_shares_add_up_and_a_gap_in_either_is_filled_by_the_other():
    first = share(registered=["game new", "help"], typed=["game new"], offered=["action"], used=[])
    second = share(registered=["game new", "help"], typed=["help"], offered=["action", "menu"], used=["action"])
    assert first.gaps() == ["slash commands no scenario typed: help", "components no scenario clicked: action"]
    controller = Coverage()
    for process in (first, second):
        controller.merge(process.as_json())
    assert controller.gaps() == ["components no scenario clicked: menu"]
    controller.merge({"used": ["menu"]})
    assert controller.gaps() == []


def test_every_scenario_file_is_named_as_in_a_test_id():
    files = scenario_files()
    assert "tests/e2e/test_bot_e2e.py" in files and "tests/e2e/test_shards_e2e.py" in files
    assert all(f.startswith("tests/e2e/test_") and f.endswith(".py") for f in files)
