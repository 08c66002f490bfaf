"""Per-server settings, changed only by a server's admins, and the ``/game settings`` summary.

One setting so far: the strength of the stand-in, the AI that plays for a player who missed a
deadline (issue 16: "default normal, a server may change it"). A game created with ``ai:`` keeps
its own choice; every other game of the server uses the server's level at the moment the stand-in
plays, so a change applies to running games from their next timeout on.
"""

from __future__ import annotations

from typing import ClassVar

from ..i18n import T, Text
from .access import Where
from .outbox import Outbox, ServiceError
from .settings import ai_level_of


class Servers:
    uses: ClassVar[tuple[str, ...]] = ("Pings", "Quiet")

    async def set_stand_in_level(self, user_id: int, level: str | None, where: Where) -> Outbox:
        """Set the stand-in level of the server where this is asked; refused (nothing stored) in
        a DM or for anyone without Manage Server / Administrator there."""
        if where.guild_id is None:
            raise ServiceError("standin_server_only")
        if not where.manages_server:
            raise ServiceError("standin_not_admin")
        level = ai_level_of(level)
        await self.store.set_stand_in_level(where.guild_id, level, user_id, self.now_stamp())
        return Outbox(reply=[T("settings.standin_set", level=T(f"ai.level.{level}"))])

    async def _server_stand_in_level(self, guild_id: int | None) -> str:
        """The level stand-ins play at in this server's games that chose none (the bot's default
        where the server set nothing, and for games outside a server)."""
        if guild_id is None:
            return self.ai_level
        return (await self.store.server_settings(guild_id))["stand_in_level"] or self.ai_level

    async def settings_lines(self, user_id: int, guild_id: int | None) -> list[Text]:
        """What ``/game settings`` without options shows: the person's own choices, and where
        asked in a server, that server's stand-in level."""
        mine = await self.store.user_settings(user_id)
        view = mine["view"]
        lines = [T("settings.summary_header"),
                 T("settings.summary_dm", state=T("settings.on" if mine["dm_reminders"] else "settings.off")),
                 T("settings.summary_view", side=T("settings.on" if view.get("side") else "settings.off"),
                   large=T("settings.on" if view.get("large") else "settings.off"))]
        lines += self._settings_quiet_lines(mine) + await self._settings_ping_lines(user_id, mine)
        if guild_id is None:
            lines.append(T("settings.summary_standin_dm"))
        else:
            chosen = (await self.store.server_settings(guild_id))["stand_in_level"]
            level = T(f"ai.level.{chosen or self.ai_level}")
            lines.append(T("settings.summary_standin" if chosen else "settings.summary_standin_default", level=level))
        return lines
