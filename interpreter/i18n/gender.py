"""Grammatical gender in messages: which variables name a player or a card, and the check that
a message naming one in a gendered form selects on its gender.

The engine passes `$NAME_gender` (masculine, feminine, neuter or other) beside every `$NAME`
that names a player, a card or a location (`Text.gender`). A language whose words agree with a
person's gender lists those word forms in its engine message file (`grammar: gendered:`, with
`not_gendered:` for words the patterns would match but that agree with nobody). A message that
names a player and uses such a form outside a select on a `$..._gender` variable is flagged:
the sentence would be right for one gender only.

Pipeline position: part of `grimoire i18n check`, over a compiled Program and locale files.
"""

from __future__ import annotations

import re
from functools import cache

from fluent.syntax import ast as FA

from ..errors import Problem
from .locales import _engine_messages

GENDER_SUFFIX = "_gender"     # $target names a player; $target_gender is its grammatical gender
# the engine's own events and prompts name the player who acts or decides
ENGINE_NAMED = {"event-turn": {"player"}, "event-act": {"player"}, "event-chose": {"player"},
                "event-passed": {"player"}, "prompt-choose": {"player"}, "prompt-act": {"player"}}


def named_vars(program) -> dict[str, set[str]]:
    """Message id -> the variables that name a player in it (what the engine passes)."""
    out: dict[str, set[str]] = {k: set(v) for k, v in ENGINE_NAMED.items()}
    if program is None:
        return out
    for pid in program.prompts:
        out.setdefault("prompt-" + pid, set()).add("player")
    for g in program.groups:
        out.setdefault("prompt-act-" + g, set()).add("player")
    for aid, a in program.actions.items():
        names = {n for n, t in zip(a.arg_names, a.arg_types) if t == "player"}
        if names:
            out.setdefault("action-" + aid, set()).update(names)
    for ev, types in getattr(program, "event_types", {}).items():
        names = {n for n, t in types.items() if t == "player"}
        if names:
            out.setdefault("event-" + ev, set()).update(names)
    return out


def player_genders(program, lang_genders: dict[str, str]) -> set[str]:
    """The genders a player can have: those of the ruleset's cards that declare one, and of
    `player-seat` (a seat no card names). One gender only: no message needs a select."""
    out = {lang_genders.get("player-seat", "other")}
    if program is not None:
        for cid, item in program.rs.cards.items():
            g = lang_genders.get("card-" + cid) or item.get("gender")
            if g:
                out.add(str(g))
    return out


@cache
def grammar(lang: str, key: str = "gendered") -> tuple[re.Pattern | None, re.Pattern | None]:
    """(gendered word forms, exceptions) of a language, from its engine message file; `key`
    `gendered_reader` gives the forms that agree with the reader a text speaks to."""
    _, _, doc = _engine_messages(lang)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    g = data.get("grammar") or {}
    pats = [str(p) for p in g.get(key) or []]
    nots = [str(p) for p in g.get("not_gendered") or []]
    word = r"(?<![\w-])(?:{})(?![\w-])"
    return (re.compile(word.format("|".join(pats)), re.I) if pats else None,
            re.compile(word.format("|".join(nots)), re.I) if nots else None)


READER_ADDRESSED = re.compile(r"^(card-.+-text|prompt-.+|option-.+|action-.+)$")


def _text_outside_gender_selects(node, out: list[str]) -> None:
    """The literal text of a pattern, leaving out every select on a $..._gender variable."""
    if isinstance(node, FA.TextElement):
        out.append(node.value)
    elif isinstance(node, FA.Pattern):
        for el in node.elements:
            _text_outside_gender_selects(el, out)
    elif isinstance(node, FA.Placeable):
        _text_outside_gender_selects(node.expression, out)
    elif isinstance(node, FA.SelectExpression):
        sel = node.selector
        if isinstance(sel, FA.VariableReference) and sel.id.name.endswith(GENDER_SUFFIX):
            return
        for v in node.variants:
            out.append(" ")
            _text_outside_gender_selects(v.value, out)
    else:
        out.append(" ")


def gendered_words(lang: str, msg: FA.Message, key: str = "gendered") -> list[str]:
    """The gendered word forms a message uses outside its gender selects."""
    pat, nots = grammar(lang, key)
    if pat is None or msg is None or msg.value is None:
        return []
    parts: list[str] = []
    _text_outside_gender_selects(msg.value, parts)
    text = "".join(parts)
    found = []
    for m in pat.finditer(text):
        w = m.group(0)
        if nots is not None and nots.fullmatch(w):
            continue
        found.append(w)
    return found


def gender_problem(lang: str, key: str, msg: FA.Message, names: set[str], uses: set[str], loc) -> Problem | None:
    """A problem if the message names a player and agrees with one gender only."""
    named = sorted(names & (uses | {v.rpartition("_")[0] for v in uses}))   # $target or $target_acc
    if READER_ADDRESSED.match(key):
        words = gendered_words(lang, msg, "gendered_reader")
        if words:
            shown = ", ".join(f"«{w}»" for w in dict.fromkeys(words))
            return Problem(loc, f"{key!r} speaks to the player, but {shown} fits one gender only: reword",
                           ("gender",))
    if not named:
        return None
    words = gendered_words(lang, msg)
    if not words:
        return None
    sels = ", ".join("$" + n + GENDER_SUFFIX for n in named)
    shown = ", ".join(f"«{w}»" for w in dict.fromkeys(words))
    return Problem(loc, f"{key!r} names {', '.join('$' + n for n in named)} but {shown} fits one gender only: "
                        f"select on {sels} (`{{ ${named[0]}{GENDER_SUFFIX} -> [feminine] ... *[other] ... }}`) "
                        "or reword", ("gender",))


def allowed_extra_vars(english_vars: set[str], vars_: set[str], forms: set[str] = frozenset()) -> set[str]:
    """Variables a translation may use beyond English: $NAME_gender and $NAME_FORM (a form its
    locale file defines) for an English $NAME."""
    out = set()
    for v in vars_:
        base, _, suffix = v.rpartition("_")
        if base in english_vars and (suffix == GENDER_SUFFIX[1:] or suffix in forms):
            out.add(v)
    return out


def forms_problems(program, lang: str, forms: dict[str, dict[str, str]], genders: dict[str, str], loc) -> list[Problem]:
    """Every location (every player name, every other card's title) of a ruleset has each form
    any of them has: a message using $quest_in must find it for every quest, or it would fall
    back to the plain name."""
    if program is None:
        return []
    people = ["player-seat"] + ["card-" + cid for cid, item in program.rs.cards.items()
                                if item.get("gender") or ("card-" + cid) in genders]
    groups = {"location": ["location-" + lid for lid in program.loc_ids], "player": people,
              # a card title after a verb takes its case too ($card_acc: «играет «Владычицу озера»»)
              "card": ["card-" + cid for cid in program.rs.cards if "card-" + cid not in people]}
    out = []
    for what, ids in groups.items():
        wanted = sorted({f for mid in ids for f in forms.get(mid, {})})
        for mid in ids:
            lacking = [f for f in wanted if f not in forms.get(mid, {})]
            if lacking:
                out.append(Problem(loc, f"{mid!r} lacks the {lang} form{'s' if len(lacking) > 1 else ''} "
                                        f"{', '.join(lacking)} that other {what} names have (forms:)", ("forms",)))
    return out
