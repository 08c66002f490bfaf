"""The commands as Discord sees them: installable to a server and to a person's account, usable in
servers, the bot's DMs and private channels; and the commands that need a server saying so
elsewhere, in the asker's language, storing nothing."""

from __future__ import annotations

import pytest

from bot.i18n import T, render
from tests.e2e.test_bot_e2e import reply_text, running_bot
from tests.fakediscord.openapi import contract

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2


@pytest.fixture
async def world(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), guild_locale="en-US") as w:
        yield w


async def test_every_command_declares_both_installs_and_every_context(world):
    fake, bot = world
    sync = next(body for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")
                for body in [r.json])
    assert sync, "the global commands were synced"
    for command in sync:  # as sent: the stand-in keeps what it stored, the request is what the bot declared
        assert sorted(command["integration_types"]) == [GUILD_INSTALL, USER_INSTALL], command["name"]
        assert sorted(command["contexts"]) == [GUILD, BOT_DM, PRIVATE_CHANNEL], command["name"]
    spec = contract()
    if spec is not None:  # each value is one of Discord's ApplicationIntegrationType / InteractionContextType
        assert spec.problems("PUT", f"/applications/{fake.application_id}/commands", sync) == []
        bad = [dict(c, contexts=[3]) for c in sync[:1]] + [dict(c, integration_types=[2]) for c in sync[:1]]
        assert spec.problems("PUT", f"/applications/{fake.application_id}/commands", bad)


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("ja", "ja")])
@pytest.mark.parametrize("command,options", [("tournament standings", {}), ("league table", {}),
                                             ("game settings", {"standin_level": "hard"})])
async def test_what_needs_a_server_says_so_in_a_group_dm(world, locale, lang, command, options):
    fake, bot = world
    fake.install_for_user("alice")
    group = fake.add_group_dm(["alice", "bob"])
    answer = await reply_text(await fake.send_slash(None, group, "alice", command, options, locale=locale))
    assert render(lang, T("error.needs_server")) in answer
    assert not [r for r in fake.requests if f"/channels/{group}" in r.path]
