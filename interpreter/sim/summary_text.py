"""What `grimoire simulate` prints, in the command line's language (`grimoire --lang`, LANG):
its words are the engine's messages (`cli-sim-*`), and the ruleset's own ids (sides, end
reasons) are shown by the ruleset's locale (`side-ID`, `end-ID`), never raw.

Pipeline position: simulation (sim/commands.py prints through it); reads the engine's and
the ruleset's messages through `interpreter.i18n`."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def _bundle(lang: str):
    from fluent.runtime import FluentBundle, FluentResource

    from ..i18n.fluent import _babel_locale, to_ftl
    from ..i18n.locales import _engine_messages
    b = FluentBundle([_babel_locale(lang)], use_isolating=False)
    b.add_resource(FluentResource(to_ftl(_engine_messages(lang)[0])))
    return b


def words(lang: str, msg_id: str, args: dict | None = None) -> str:
    """An engine message in `lang`, else English."""
    for code in (lang, "en") if lang != "en" else ("en",):
        b = _bundle(code)
        if b.has_message(msg_id) and b.get_message(msg_id).value is not None:
            return b.format_pattern(b.get_message(msg_id).value, args or {})[0]
    return msg_id


class Names:
    """The ruleset's names of sides and end reasons in one language (English if it has none)."""

    def __init__(self, program, lang: str):
        from ..i18n import Text
        from ..i18n.languages import languages_of
        self.text = Text(program, lang if lang in languages_of(program.rs.root) else "en")

    def side(self, s: str) -> str:
        return self.text.msg("side-" + s, default=s)

    def title(self) -> str:
        """The game's title in the language (`title` in its locale), else the ruleset's."""
        rs = self.text.prog.rs
        return self.text.msg("title", default=rs.title) if self.text.has("title") else rs.title

    def variant(self, path: str) -> str:
        """A variant's title: `variant-ID` in the ruleset's locale, else the variant file's own
        `title:` (its id if it has none)."""
        from ..variants.overlay import load_variant
        data = load_variant(path, Path(self.text.prog.rs.root)).data
        vid = str(data.get("variant", path))
        if self.text.has("variant-" + vid):
            return self.text.msg("variant-" + vid)
        return str(data.get("title") or vid)

    def run_label(self, variants, sweep_point: tuple | None = None) -> str:
        """How the progress bar names a run: the game's title and its variants' titles, and the
        swept value (`N = 5`, `N = 4 (the rules)`), in the language."""
        if sweep_point is not None:
            name, v, rules = sweep_point
            point = f"{name} = {v}" + (f" ({words(self.text.lang, 'cli-sim-the-rules')})" if rules else "")
            return " + ".join([self.title(), *(self.variant(p) for p in variants)]) + " · " + point
        return " + ".join([self.title(), *(self.variant(p) for p in variants)])

    def reason(self, r: str) -> str:
        if r in ("error", "decision_limit") and not self.text.has("end-" + r):
            return r
        return self.text.end_reason(r)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def print_summary(console, report: dict, bots, names: Names, lang: str) -> None:
    """Each run's table of wins per side, by seat, game length and ends (the comparison table
    of --compare is sim/commands.py's)."""
    from rich.markup import escape
    from rich.table import Table
    w = lambda k, **a: words(lang, k, a)  # noqa: E731
    for name, s in report["summary"].items():
        label = name if name == report["ruleset"] else f"{report['ruleset']} — {name}"
        title = w("cli-sim-title", label=label, n=s["played"])
        if s["errors"]:
            title += ", " + w("cli-sim-errors", n=s["errors"])
        if report["interrupted"]:
            title += " " + w("cli-sim-interrupted")
        t = Table(title=escape(title))
        t.add_column(w("cli-sim-side"))
        t.add_column(w("cli-sim-wins"), justify="right")
        t.add_column(w("cli-sim-rate"), justify="right")
        t.add_column(w("cli-sim-ci"), justify="right")
        for side, r in s["by_side"].items():
            t.add_row(escape(names.side(side)), str(r["wins"]), _pct(r["rate"]), _ci(r["ci95"]))
        if len(set(bots)) > 1:
            for kind, r in s["by_bot"].items():
                t.add_row(f"[dim]{escape(w('cli-sim-bot-row', kind=kind))}[/dim]", str(r["wins"]),
                          _pct(r["rate"]), _ci(r["ci95"]))
        console.print(t)
        if s["first_error"]:
            console.print(f"  [red]{escape(w('cli-sim-stopped'))}[/red]: {escape(str(s['first_error']))}")
        seats = ", ".join(f"{seat}: {_pct(r['rate'])} ({_ci(r['ci95'])})" for seat, r in s["by_seat"].items())
        console.print("  " + escape(w("cli-sim-by-seat", list=seats)))
        ends = ", ".join(f"{names.reason(k)} ({v})" for k, v in s["reasons"].items())
        d, tn = s["decisions"], s["turns"]
        console.print("  " + escape(w("cli-sim-length", d=f"{d['mean']:.1f}", dsd=f"{d['sd']:.1f}",
                                      t=f"{tn['mean']:.1f}", tsd=f"{tn['sd']:.1f}",
                                      none=str(s["no_winner"]), ends=ends)), soft_wrap=True)
        if s.get("stats"):
            stats = ", ".join(f"{k} {v['mean']:.2f} ± {v['sd']:.2f}" for k, v in s["stats"].items())
            console.print("  " + escape(w("cli-sim-at-end", list=stats)))


def never_won(summaries: dict[str, dict], names: Names, lang: str) -> list[str]:
    """A warning for each side that won no game of a run (a rule that cannot be won?)."""
    out = []
    for run, s in summaries.items():
        if not s["played"]:
            continue
        for side, r in s["by_side"].items():
            if r["wins"] == 0:
                out.append(words(lang, "cli-sim-never-won", {"side": names.side(side), "n": s["played"], "run": run}))
        if not s["by_side"] and s["no_winner"]:
            out.append(words(lang, "cli-sim-no-side-won", {"n": s["played"], "run": run}))
    return out


def speed_line(ex: dict, lang: str) -> str | None:
    if not ex.get("games_per_second"):
        return None
    jobs = words(lang, "cli-sim-jobs", {"n": ex["jobs"]}) if ex["jobs"] else words(lang, "cli-sim-all-jobs")
    if "nodes" in ex:
        jobs += words(lang, "cli-sim-nodes", {"workers": ex["workers"], "nodes": ex["nodes"]})
    return "  " + words(lang, "cli-sim-speed", {"s": f"{ex['seconds']:.1f}", "gps": f"{ex['games_per_second']:.1f}",
                                                "backend": ex["backend"], "where": jobs})
