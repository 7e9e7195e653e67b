"""Text in every language: Fluent messages from locale YAML files, CLDR plurals via Babel.

Pipeline position: beside the engine; reads a compiled Program and events from a state's
log, never the state's hidden parts. A ruleset's `locales/LANG.yaml` holds Fluent patterns
keyed `card-ID`, `card-ID-text`, `location-ID`, `action-ID`, `prompt-ID`, `option-ID`,
`event-ID`, `side-ID`, `end-ID`, ...; the engine's own generic events (turn, act, chose,
passed, game_over) have default text in `interpreter/messages/LANG.yaml` that a ruleset may
override. Numbers in card text come from the card's `params`, so a variant that changes a
number changes the text in every language, with the right plural form.

English (`en.yaml`) is the source language. `check_locales` compares every other locale
with it: missing and extra ids, variables, plural coverage of numeric selects (the CLDR
categories, from Babel, that whole numbers 0..1000 reach in that language: Russian and
Polish one/few/many/other, Portuguese and English one/other), Fluent syntax, and staleness
(a locale file's `source:` map holds, per id, `pattern_hash` of the English pattern it was
translated from). Rendering records in `Text.missing` the ids nobody translated and in
`Text.fallbacks` the ids that fell back to English, so tests can demand a complete log.
"""

from .check import check_english, check_locale_set, check_locales, fluent_problems, program_ids
from .fluent import (
                     PLURAL_KEYS,
                     expand_selects,
                     numeric_vars,
                     parse_pattern,
                     pattern_hash,
                     plural_categories,
                     plural_category,
                     scan,
                     selector_vars,
                     to_ftl,
)
from .locales import ENGINE_MESSAGES, LANGS, locale_messages, locale_sources
from .text import Text

__all__ = ["ENGINE_MESSAGES", "LANGS", "PLURAL_KEYS", "Text", "check_english", "check_locale_set", "check_locales",
           "expand_selects", "fluent_problems", "locale_messages", "locale_sources", "numeric_vars", "parse_pattern",
           "pattern_hash", "plural_categories", "plural_category", "program_ids", "scan", "selector_vars", "to_ftl"]
