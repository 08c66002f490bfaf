import pytest

from games import registry
from tests.fake_games import SecretPick


@pytest.fixture
def secret_game():
    """A tiny hidden-information game registered only for the test that asks for it."""
    game = registry.register(SecretPick())
    yield game
    registry.unregister(game.name)
