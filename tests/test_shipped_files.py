"""Every YAML file the project ships names its schema on its first line (editor completion),
and that schema file exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shipped_yaml() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "*.yaml"], cwd=ROOT, capture_output=True, text=True)
    files = [ROOT / f for f in out.stdout.split()] if out.returncode == 0 else list(ROOT.rglob("*.yaml"))
    return [f for f in files if "tests/golden" not in str(f) and f.is_file()]


def test_every_shipped_yaml_names_its_schema():
    missing = []
    for f in shipped_yaml():
        first = f.read_text(encoding="utf-8").splitlines()[:1]
        m = re.match(r"^# yaml-language-server: \$schema=(\S+)$", first[0]) if first else None
        if not m:
            missing.append(f"{f.relative_to(ROOT)}: no schema line")
            continue
        target = (f.parent / m.group(1)).resolve()
        if not target.is_file():
            missing.append(f"{f.relative_to(ROOT)}: schema {m.group(1)} not found")
    assert not missing, "\n".join(missing)


# ---- nothing points outside the repository ---------------------------------------------------

# a machine path: an absolute directory of a Unix or Windows file system, or a file:// address
_ABSOLUTE = re.compile(r"(?<![\w.~:/-])/(?:work|home|Users|tmp|root|mnt|opt|srv|var|usr|etc)/[\w.-]"
                       r"|\b[A-Z]:\\{1,2}(?:Users|Windows|Program Files)\b|file://")
# documents that exist only on the machines the project was made on
_OUTSIDE = re.compile(r"rules-facts|shared/(?:reference|seeds)\b|\.\./shared/")
# a relative path that climbs (../) in a Markdown link or a YAML file's $schema line
_CLIMB = re.compile(r"(?:\]\(|\$schema=)((?:\.\./)+[^)\s#]*)")


def shipped_text_files() -> list[Path]:
    """Every file git would ship (tracked or new, not ignored) that reads as UTF-8 text."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    files = []
    for name in out.stdout.splitlines():
        f = ROOT / name
        if not f.is_file() or f.suffix in (".png", ".jpg", ".pdf", ".svgz"):
            continue
        try:
            files.append((f, f.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue
    return files


def test_no_shipped_file_points_outside_the_repository():
    """No machine path, no reference to a document outside the repository, no ../ that leaves it."""
    bad = []
    for f, text in shipped_text_files():
        rel = f.relative_to(ROOT)
        if rel == Path("tests/test_shipped_files.py"):
            continue                           # this test's own patterns and examples
        for n, line in enumerate(text.splitlines(), 1):
            if n == 1 and line.startswith("#!"):
                continue                       # an interpreter line names the system's program
            for pat in (_ABSOLUTE, _OUTSIDE):
                m = pat.search(line)
                if m:
                    bad.append(f"{rel}:{n}: {m.group(0)!r} in {line.strip()[:100]}")
            for m in _CLIMB.finditer(line) if f.suffix in (".md", ".yaml") else ():
                if (m.group(0).startswith("$") and f.suffix != ".yaml") or (m.group(0).startswith("]")
                                                                             and f.suffix != ".md"):
                    continue                   # a YAML example quoted in a document, or code
                target = (f.parent / m.group(1)).resolve()
                if not target.is_relative_to(ROOT):
                    bad.append(f"{rel}:{n}: {m.group(1)!r} leaves the repository")
    assert not bad, "\n".join(bad)


def test_the_check_finds_what_it_looks_for():
    """The patterns of the grep above catch the cases they are meant for (and pass clean text)."""
    assert _ABSOLUTE.search("see /work/shared/x.md") and _ABSOLUTE.search("C:\\Users\\me")
    assert _ABSOLUTE.search("wrote /tmp/out/results.json") and _ABSOLUTE.search("file:///x")
    assert not _ABSOLUTE.search("a/b/tmp/c and rulesets/x and http://example.org/usr/x")
    assert _OUTSIDE.search("Rules: rules-facts.md Part B")
    assert _CLIMB.search("[x](../../shared/x.md)").group(1) == "../../shared/x.md"
    assert not _ABSOLUTE.search('"a:\\n\\tb: 1"') and not _OUTSIDE.search("include: [../shared.yaml]")


RULE_TAG = re.compile(r"\b(A\d{1,2}(?:\.(?:\d+|[A-E]))?|B\d{1,2}(?:\.\d+)?|C-CotD-\d+|C-\d+|F-\d+)\b")


def rule_anchors(rules: str) -> set[str]:
    """The tags RULES.md defines: a heading starting with the tag, or an <a id="TAG"> anchor."""
    heads = {m.group(1) for m in re.finditer(r"^#+\s+([A-Z][\w.-]*?)\.?\s", rules, re.M)}
    return heads | set(re.findall(r'<a id="([^"]+)"></a>', rules))


def test_every_cited_rule_tag_is_in_rules_md():
    """Each section tag a ruleset's YAML, README or scenarios cite is a heading or anchor of its RULES.md."""
    for game in ("shadows_over_camelot", "castle_of_the_devil"):
        folder = ROOT / "rulesets" / game
        rules = (folder / "RULES.md").read_text(encoding="utf-8")
        anchors = rule_anchors(rules)
        cited: dict[str, str] = {}
        for f in sorted(folder.rglob("*")):
            if f.suffix not in (".yaml", ".md", ".py") or f.name == "RULES.md" or not f.is_file():
                continue
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                for tag in RULE_TAG.findall(line):
                    cited.setdefault(tag, f"{f.relative_to(ROOT)}:{n}")
        assert len(cited) > 20, f"{game}: too few tags found: the pattern is wrong"
        missing = [f"{where}: {tag}" for tag, where in sorted(cited.items()) if tag not in anchors]
        assert not missing, f"{game}: tags cited but not in RULES.md:\n" + "\n".join(missing)
