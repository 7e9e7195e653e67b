"""The interpreter knows no game: no Python source under interpreter/ names a shipped ruleset,
by its folder, by its title, or by a word of its title long enough to be a name (`Camelot`,
`Devil`; `High` alone is also plain English, and is checked only inside `High Tide`)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STOP = {"of", "the", "over", "and"}


def game_names() -> re.Pattern:
    names = set()
    for ruleset in sorted((ROOT / "rulesets").glob("*/ruleset.yaml")):
        m = re.search(r"^title:\s*(.+)$", ruleset.read_text(encoding="utf-8"), re.M)
        assert m, ruleset
        title = re.findall(r"[A-Za-z]+", m.group(1))
        names.add(r"[\s_-]+".join(map(re.escape, ruleset.parent.name.split("_"))))
        names.add(r"[\s_-]+".join(map(re.escape, title)))
        names |= {re.escape(w) for w in title if len(w) >= 5 and w.lower() not in STOP}
    return re.compile(r"\b(" + "|".join(sorted(names)) + r")\b", re.I)


def test_the_check_knows_every_shipped_game():
    pattern = game_names()
    for text in ["Camelot 5p", "castle_of_the_devil", "rulesets/high_tide", "High Tide", "the Devil"]:
        assert pattern.search(text), text
    assert not pattern.search("spaces.Box(low=0, high=1)")


def test_no_interpreter_source_names_a_shipped_game():
    pattern = game_names()
    bad = []
    for f in sorted((ROOT / "interpreter").rglob("*.py")):
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{f.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not bad, "\n".join(bad)
