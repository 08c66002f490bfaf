"""Recompute every bot-rolled die of an Arena Duel game from its revealed seed.

    python -m games.arena SEED [TURNS]

prints, for turns 1..TURNS (default 30), the three dice in rolled order of seat 1 (A, seat
index 0) and seat 2 (B, seat index 1), exactly as the bot rolled them: compare them with the
dice revealed in each turn's result. The recipe is :func:`games.arena.engine.dice_for_turn`.
"""

from __future__ import annotations

import sys

from .engine import dice_for_turn


def dice_table(seed: int, turns: int) -> list[str]:
    """One line per turn.

    >>> dice_table(1234, 1)[0].startswith("turn 1: A ")
    True
    """
    return [f"turn {t}: A {'-'.join(map(str, dice_for_turn(seed, t, 0)))}  "
            f"B {'-'.join(map(str, dice_for_turn(seed, t, 1)))}" for t in range(1, turns + 1)]


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2 or not all(a.isdigit() for a in argv):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    seed, turns = int(argv[0]), int(argv[1]) if len(argv) > 1 else 30
    print("\n".join(dice_table(seed, turns)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
