"""The game's random numbers: a splitmix64 generator whose whole state is one integer.

Pipeline position: engine. The state lives inside the game state, so cloning, saving and
replaying a game reproduces every shuffle and roll; no global random module is touched.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E8) & MASK


def next_u64(s: int) -> tuple[int, int]:
    """Advance state s; return (new state, 64 random bits)."""
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


class Rng:
    """A tiny seeded generator with the few draws the engine needs."""

    __slots__ = ("s",)

    def __init__(self, state: int):
        self.s = state

    def below(self, n: int) -> int:
        """A uniform int in [0, n) (next_u64 written inline: this runs for every draw)."""
        s = self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def roll(self, n: int) -> int:
        """A die of n faces: 1..n (a scenario's LoadedDice fixes these)."""
        return self.below(max(1, n)) + 1

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        return Rng(self.s)

    def shuffle(self, xs: list) -> None:
        """Fisher-Yates, in place."""
        below = self.below
        for i in range(len(xs) - 1, 0, -1):
            j = below(i + 1)
            xs[i], xs[j] = xs[j], xs[i]
