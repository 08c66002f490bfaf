"""Runs after every other end-to-end scenario (files run in name order): every slash command the
bot registers was typed, and every kind of component it offered was clicked, by some scenario.
A command or button that never answers cannot hide behind tests that never touch it."""

from __future__ import annotations

import pytest

from tests.e2e.test_bot_e2e import COVERAGE


def test_every_command_and_every_kind_of_component_is_used_by_a_scenario():
    if not COVERAGE.registered:
        pytest.skip("run with the other end-to-end scenarios: python -m pytest tests/e2e")
    assert not COVERAGE.registered - COVERAGE.typed, f"never typed: {sorted(COVERAGE.registered - COVERAGE.typed)}"
    assert not COVERAGE.offered - COVERAGE.used, f"never clicked: {sorted(COVERAGE.offered - COVERAGE.used)}"
