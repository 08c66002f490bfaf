"""A tiny explicit random generator whose whole state is one integer (splitmix64).

State lives inside the game state, so ``seed + action log`` replays a game exactly and the
algorithm never changes under us across Python versions.

>>> s, x = next_u64(42)
>>> s, y = randbelow(s, 6)
>>> 0 <= y < 6
True
"""

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator; return (new_state, 64-bit output)."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def randbelow(state: int, n: int) -> tuple[int, int]:
    """Uniform integer in [0, n) without modulo bias."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list) -> tuple[int, list]:
    """Fisher-Yates shuffle into a new list."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


class Rng:
    """Convenience wrapper for engines: read the state out of a dict, write it back."""

    def __init__(self, state: int):
        self.state = state & MASK64

    def below(self, n: int) -> int:
        self.state, x = randbelow(self.state, n)
        return x

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def shuffled(self, items: list) -> list:
        self.state, out = shuffle(self.state, items)
        return out

    def choice(self, items):
        return items[self.below(len(items))]
