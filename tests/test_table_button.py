"""The Discord side of the web table, without Discord: the Table button's custom id, its place on
boards and panels only where the bot serves a web table, and the link a "your turn" DM carries
(it opens that game, for that player, from the game's own place)."""

from __future__ import annotations

import discord

from bot.discord_app import custom_ids
from bot.discord_app.delivery import Delivery
from bot.i18n import render
from bot.service import Post, Private, Where
from bot.web import WebSettings
from bot.web.links import Signer


class FakeClient:
    def __init__(self, web_settings) -> None:
        self.web_settings = web_settings


def settings() -> WebSettings:
    return WebSettings(secret=b"t" * 32, port=8642, public_url="https://table.example")


def table_ids(view) -> list[str]:
    items = [] if view is None else (list(view.walk_children()) if hasattr(view, "walk_children") else view.children)
    return [item.custom_id for item in items if (getattr(item, "custom_id", None) or "").startswith("tt:w:")]


def test_the_table_buttons_id_names_its_game_only() -> None:
    cid = custom_ids.encode_table(42)
    assert custom_ids.decode(cid) == custom_ids.Route("w", 42, None, None)
    assert custom_ids.decode("tt:w:42:7") is None and custom_ids.decode("tt:w:42:7:x") is None


def test_boards_and_panels_carry_a_table_button_only_with_a_web_table() -> None:
    post = Post(7, 55, [], image=b"png", guild_id=1)
    panel = Private(3, 7, [], image=b"png")
    on, off = Delivery(FakeClient(settings()), host=None), Delivery(FakeClient(None), host=None)
    assert table_ids(on._post_kwargs(post)["view"]) == [custom_ids.encode_table(7)]
    assert table_ids(on.private_kwargs(panel, "en").get("view")) == [custom_ids.encode_table(7)]
    assert not table_ids(off._post_kwargs(post).get("view"))
    assert not table_ids(off.private_kwargs(panel, "en").get("view"))


async def test_a_your_turn_dm_carries_the_link_to_that_games_table() -> None:
    web = settings()
    delivery = Delivery(FakeClient(web), host=None)
    sent: list[Private] = []

    async def dm(private: Private):
        sent.append(private)
        return None

    delivery._dm = dm
    post = Post(7, 55, [], guild_id=1, image=b"png")
    post.dm_turn = {3: "en"}
    message = discord.Object(99)
    message.jump_url = "https://discord.com/channels/1/55/99"
    await delivery._turn_dms(post, message)
    (private,) = sent
    words = [render("en", line) for line in private.lines]
    link = words[-1].split(": ", 1)[1]
    assert link.startswith("https://table.example/t/")
    opened = Signer(web.secret).open_link(link.rsplit("/", 1)[1])
    assert (opened.user_id, opened.game_id, opened.where) == (3, 7, Where(1, 55))
