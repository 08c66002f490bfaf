import pytest

import renderers
from games import registry
from tests.fake_games import SecretPick, render_secretpick


@pytest.fixture
def secret_game():
    """A tiny hidden-information game (and its renderer) registered only for the test asking."""
    game = registry.register(SecretPick())
    renderers.register(game.name)(render_secretpick)
    yield game
    registry.unregister(game.name)
    renderers._RENDERERS.pop(game.name, None)
