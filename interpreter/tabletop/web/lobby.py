"""The lobby of `grimoire serve` without a ruleset: choose a game and make tables from the browser.

Pipeline position: the outermost layer of a serve with no RULESET, over any number of rooms.
Routes:

    /                      the lobby page: a form (game, variants, players, language, seats) and the tables
    /api/games             every shipped ruleset: title, player counts, variants, languages
    /api/tables            GET: the tables made so far; POST {ruleset, variants, players, lang, seats, seed}:
                           a new table, answered with its links (every human seat, spectator, host)
    /t/ID/...              a table: the same app as `grimoire serve RULESET` (web/app.py) under a prefix

With a tables folder (`grimoire serve --tables DIR`, by default `grimoire-tables/`), every
table is kept there after every change and resumes, links and all, when the lobby starts
again (`web/tables.py`).

A table's links are shared through the lobby (that is what it is for: whoever opens the lobby
may join a seat); what each seat is then sent is the same as at any table, its own view only.
"""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...game import RULESETS, load
from ...i18n.languages import languages_of
from ...i18n.locales import LANGS
from . import guard
from .app import STATIC, create_app
from .room import Refused, Room
from .tables import keep, keep_quietly, resume

MAX_TABLES = 50
LABELS = ("title", "game", "variants", "players", "language", "seat", "human", "create", "tables", "join", "watch",
          "host", "resume", "decisions")


def games() -> list[dict]:
    out = []
    for d in sorted(p for p in RULESETS.iterdir() if (p / "ruleset.yaml").is_file()):
        game = load(d)
        rs = game.ruleset
        out.append({"id": d.name, "title": rs.title, "min": rs.min_players, "max": rs.max_players,
                    "variants": sorted(v.stem for v in (d / "variants").glob("*.yaml")) if (d / "variants").is_dir()
                    else [], "languages": sorted(languages_of(d))})
    return out


def make_room(body, save_path=None) -> Room:
    """A new room from the lobby's form, or a refusal saying what is wrong."""
    from ...bots import KINDS
    if not isinstance(body, dict):
        raise Refused("send a JSON object {ruleset, variants, players, lang, seats}", 400)
    known = {g["id"]: g for g in games()}
    rid = body.get("ruleset")
    if rid not in known:
        raise Refused(f"no game {rid!r} here (the games: {', '.join(known)})", 400)
    g = known[rid]
    variants = body.get("variants") or []
    if not isinstance(variants, list) or any(v not in g["variants"] for v in variants):
        raise Refused(f"variants of {rid} are: {', '.join(g['variants']) or 'none'}", 400)
    seats = body.get("seats")
    players = body.get("players")
    if not isinstance(players, int) or not g["min"] <= players <= g["max"]:
        raise Refused(f"{g['title']} is for {g['min']} to {g['max']} players", 400)
    if not isinstance(seats, list) or len(seats) != players or any(
            s != "human" and s not in KINDS for s in seats):
        raise Refused(f"name one seat per player: human or a bot ({', '.join(KINDS)})", 400)
    lang = body.get("lang") or "en"
    if lang not in g["languages"]:
        raise Refused(f"{g['title']} has text in {', '.join(g['languages'])}", 400)
    seed = body.get("seed", 1)
    if not isinstance(seed, int):
        raise Refused("the seed is a whole number", 400)
    game = load(RULESETS / rid, [str(RULESETS / rid / "variants" / f"{v}.yaml") for v in variants])
    try:
        st = game.new_game(seed=seed, players=players)
        return Room(game, st, seats, seed, lang, save_path or f"{rid}.{seed}.save.json")
    except ValueError as e:
        raise Refused(str(e), 400) from None


def create_lobby(lang: str = "en", folder: str | Path | None = None) -> Starlette:
    """The lobby's app; with a folder, every table is kept there and those kept resume (`web/tables.py`)."""
    folder = Path(folder) if folder is not None else None
    tables: list[dict] = []
    app = Starlette()
    lock = asyncio.Lock()
    app.state.problems = []

    def serve_table(t: dict) -> None:
        tables.append(t)
        if folder is not None:
            t["room"].persist = lambda room: keep_quietly(folder, t)
        app.router.routes.append(Mount(f"/t/{t['id']}", app=create_app(t["room"])))

    if folder is not None:
        kept, app.state.problems = resume(folder)
        for t in kept:
            serve_table(t)

    def links(request, t: dict) -> dict:
        room, base = t["room"], str(request.base_url).rstrip("/") + f"/t/{t['id']}"
        return {"id": t["id"], "title": room.game.ruleset.title, "ruleset": t["ruleset"], "variants": t["variants"],
                "lang": room.lang, "seats": room.seats, "over": room.state.is_over(),
                "join": [{"seat": i + 1, "url": f"{base}/seat/{room.player_token(i)}"}
                         for i, k in enumerate(room.seats) if k == "human"],
                "watch": f"{base}/watch/{room.spectator_token}", "host": f"{base}/host/{room.host_token}",
                "resumed": bool(t.get("resumed")), "decisions": len(room.state.history)}

    async def page(request):
        from ...commands.cli_text import cli_text
        code = request.query_params.get("lang") or lang
        code = code if code in LANGS else "en"
        labels = {k: cli_text(code, "table-ui-lobby-" + k, default=k) for k in LABELS}
        body = (STATIC / "lobby.html").read_text(encoding="utf-8")
        for k, v in {"LANG": code, "TITLE": labels["title"], "LABELS": json.dumps(labels, ensure_ascii=False)}.items():
            body = body.replace("{{" + k + "}}", html.escape(v))
        return HTMLResponse(body)

    async def api_games(request):
        from ...bots import KINDS
        return JSONResponse({"games": await asyncio.to_thread(games), "kinds": list(KINDS)})

    async def api_tables(request):
        if request.method == "GET":
            return JSONResponse([links(request, t) for t in tables])
        try:
            if not guard.origin_ok(request.headers):  # a page of another site making tables here
                raise guard.Rejected("this request comes from a page of another site", 403)
            body = await guard.read_body(request)  # bounded in size and depth before it is parsed
        except guard.Rejected as e:
            return JSONResponse({"type": "refused", "message": str(e)}, status_code=e.status)
        try:
            async with lock:
                if len(tables) >= MAX_TABLES:
                    raise Refused(f"this lobby holds {MAX_TABLES} tables at most", 409)
                tid = str(max([int(t["id"]) for t in tables] + [0]) + 1)
                if folder is not None:
                    folder.mkdir(parents=True, exist_ok=True)
                room = await asyncio.to_thread(make_room, body, folder / f"{tid}.save.json" if folder else None)
                t = {"id": tid, "room": room, "ruleset": body["ruleset"], "variants": body.get("variants") or []}
                if folder is not None:
                    await asyncio.to_thread(keep, folder, t)
                serve_table(t)
        except Refused as e:
            return JSONResponse({"type": "refused", "message": str(e)}, status_code=e.status)
        return JSONResponse(links(request, t))

    app.router.routes.extend([Route("/", page), Route("/api/games", api_games),
                              Route("/api/tables", api_tables, methods=["GET", "POST"]),
                              Mount("/static", StaticFiles(directory=STATIC), name="static")])
    app.state.tables = tables
    return app
