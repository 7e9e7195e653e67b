"""Problems in the reader's language: `grimoire --lang ru validate .` prints Russian messages.

Pipeline position: i18n (commands/output.py calls `localize` on every problem it prints). A
check writes its problem in English, as it always has (the English is what tests, JSON output
and editor integrations read); the engine's catalogue (`interpreter/messages/LANG.yaml`) holds
each problem's English as a message with arguments:

* `problem-ID` is one message, e.g. `problem-undefined-name: "undefined name '{ $name }'"`;
* `problem-word-ID` is a word a message is given as an argument ("a number", "a mapping"),
  translated wherever an argument is exactly that word (or a list of such words joined by
  "or");
* `problem-hint-did-you-mean` is the "(did you mean 'x'?)" a message may carry.

An argument matches any text, except `$op` (an operator such as + == and, so in "cannot compute
a number + a string" the operands are told apart).

The English pattern is the message's key, as an English msgid is in gettext: a problem whose
text matches `problem-ID`'s English (its `{ $x }` matching any text) is printed with
`problem-ID`'s translation and the same arguments. A problem no message matches, or one whose
language has no translation, stays English: nothing is guessed. A test keeps every pattern
matching the problems the checks really write (tests/test_i18n_problems.py, over the broken
ruleset corpus), so a check that changes its English is caught.
"""

from __future__ import annotations

import re
from functools import cache

PREFIX = "problem-"
WORD = "problem-word-"
HINT = "problem-hint-did-you-mean"
_PLACE = re.compile(r"\{\s*\$([a-z][a-z0-9_]*)\s*\}")
_ID = re.compile(r"'?[\w.$-]+'?")
_HINT = re.compile(r" \(did you mean '([^']*)'\?\)")


def _english() -> dict[str, str]:
    from .locales import _engine_messages
    return {k: str(v) for k, v in _engine_messages("en")[0].items() if k.startswith(PREFIX)}


@cache
def _patterns() -> list[tuple[re.Pattern, str]]:
    """(regex of the English, message id) of every problem message, most literal text first."""
    out = []
    for key, text in _english().items():
        if key.startswith(WORD) or key == HINT:
            continue
        parts, seen, pos = [], set(), 0
        for m in _PLACE.finditer(text):
            parts.append(re.escape(text[pos:m.start()]))
            name = m.group(1)
            any_text = r"(?:[^\w\s]+|and|or|in|not)" if name == "op" else ".*?"   # an operator: + == and
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>{any_text})")
            seen.add(name)
            pos = m.end()
        parts.append(re.escape(text[pos:]))
        literal = len(_PLACE.sub("", text))
        out.append((literal, re.compile("".join(parts), re.S), key))
    out.sort(key=lambda t: -t[0])
    return [(rx, key) for _, rx, key in out]


@cache
def _words() -> dict[str, str]:
    return {text: key for key, text in _english().items() if key.startswith(WORD)}


def match(message: str) -> tuple[str, dict[str, str]] | None:
    """The problem message id and arguments of an English problem text, or None."""
    for rx, key in _patterns():
        m = rx.fullmatch(message)
        if m:
            return key, m.groupdict()
    return None


@cache
def engine_bundle(lang: str):
    """A Fluent bundle of the engine's own messages in `lang` (the command line's words too)."""
    from fluent.runtime import FluentBundle, FluentResource

    from .fluent import _babel_locale, to_ftl
    from .locales import _engine_messages
    b = FluentBundle([_babel_locale(lang)], use_isolating=False)
    b.add_resource(FluentResource(to_ftl(_engine_messages(lang)[0])))
    return b


def _has(lang: str, key: str) -> bool:
    return engine_bundle(lang).has_message(key)


def _text(lang: str, key: str, args: dict | None = None) -> str:
    b = engine_bundle(lang)
    return b.format_pattern(b.get_message(key).value, args or {})[0]


def _word(lang: str, value: str) -> str:
    """An argument in `lang`: a known word (or words joined by "or") translated, else as is."""
    key = _words().get(value)
    if key is not None:
        return _text(lang, key) if _has(lang, key) else value
    parts = re.split(r", | or ", value)
    if len(parts) > 1 and all(p in _words() and _has(lang, _words()[p]) for p in parts):
        said = [_text(lang, _words()[p]) for p in parts]
        return _text(lang, "problem-list-or", {"first": ", ".join(said[:-1]), "last": said[-1]})
    if len(parts) > 1 and " or " in value and all(_ID.fullmatch(p) for p in parts):  # a list of ids
        return _text(lang, "problem-list-or", {"first": ", ".join(parts[:-1]), "last": parts[-1]})
    return value


def localize(message: str, lang: str) -> str:
    """`message` (a problem's English) in `lang`; English where the catalogue has no match."""
    if lang == "en" or not message:
        return message
    hints = _HINT.findall(message)
    head = _HINT.sub("", message)
    found = match(head)
    if found is None or not _has(lang, found[0]):
        return message
    key, args = found
    out = _text(lang, key, {k: _word(lang, v) for k, v in args.items()})
    for h in hints:
        out += " " + (_text(lang, HINT, {"name": h}) if _has(lang, HINT) else f"(did you mean '{h}'?)")
    return out


def localized_share(messages: list[str], lang: str) -> tuple[int, int]:
    """(how many of `messages` `lang` prints in its own words, how many there are)."""
    return sum(localize(m, lang) != m for m in messages), len(messages)
