"""Monster Hunter TCG: registered as ``monsterhunter`` (aliases ``mh``, ``mhtcg``).

The rules as read are /work/shared/MONSTER_HUNTER.md; the engine is :mod:`.engine`, the data files
and their schema checks :mod:`.cards`, the map :mod:`.board`, the notation :mod:`.notation`.
"""

from ..registry import register
from .engine import MonsterHunter

GAME = register(MonsterHunter(), "mh", "mhtcg")

__all__ = ["GAME", "MonsterHunter"]
