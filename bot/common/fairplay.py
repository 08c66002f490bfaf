"""Fair play: the bot commits to a game's random seed when it starts and reveals it at the end.

The start post shows ``sha256("<seed>:<salt>")``; the final post shows the seed and the salt.
Anyone can then check the commitment and recompute every die of the game from the seed:

    python -m bot.common.fairplay SEED SALT          # prints the commitment to compare
    python -m games.arena SEED [TURNS]        # Arena Duel: every bot-rolled die, turn by turn

The salt keeps the seed from being guessed from the commitment while the game runs.
"""

from __future__ import annotations

import hashlib
import secrets
import sys


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    """>>> commitment(42, "ab")[:12]
    'a86fd81f9fc7'
    """
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not argv[0].isdigit():
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print(commitment(int(argv[0]), argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
