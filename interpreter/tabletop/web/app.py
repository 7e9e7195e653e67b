"""The web table as an ASGI app (starlette): pages, a websocket per browser, a small JSON API.

Pipeline position: the outermost layer of `grimoire serve`, over one `Room`. Routes:

    /seat/TOKEN, /watch/TOKEN     the table of a seat, or the public view (one page, table.js)
    /host/TOKEN                   the host's page: every seat's link, save, replay
    /replay/TOKEN                 the game so far, decision by decision, as a chosen seat saw it
    /ws/TOKEN?lang=L              pushes the seat's payload after every decision; takes choices
    /api/view|choose|save|replay/TOKEN   the same over plain HTTP (scripts, load tests)
    /cards/L/CARD.svg             a card face from the card renderer, in language L

Every message to a seat is `Room.payload` (its view, never the state). A refused request gets
`{"type": "refused", "message": ...}` (HTTP 400/403/409) and changes nothing.
"""

from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..history import history
from . import guard
from .cards import card_face
from .hub import Hub
from .replay import room_replay
from .room import Refused, Room

STATIC = Path(__file__).resolve().parent / "static"


def _refusal(e: Refused) -> JSONResponse:
    return JSONResponse({"type": "refused", "message": str(e)}, status_code=e.status)


def _lang(request, room: Room) -> str:
    """The language a page asks for (?lang=), if the ruleset has text in it."""
    lang = request.query_params.get("lang") or room.lang
    return lang if lang in room.languages else room.lang


def _page(name: str, room: Room, token: str, lang: str, base: str = "", **extra: str) -> HTMLResponse:
    """A page: the shell (head, labels, script) around the page's own content."""
    text = room.text(lang)
    labels = {k: text.msg("table-ui-" + k, default=k) for k in
              ("connecting", "replay", "step", "seat", "spectator", "save", "saved", "start", "players", "refused",
               "autopass", "auto", "history", "since", "notes", "your_turn", "no_text", "rules", "close", "heard",
               "chat", "send", "takeback", "takeback_asks", "accept", "refuse", "sound", "autoone", "auto_one",
               "plan", "plan_go", "plan_note", "ahead", "ahead_cancel")}
    body = (STATIC / "shell.html").read_text(encoding="utf-8").replace(
        "{{CONTENT}}", (STATIC / f"{name}.html").read_text(encoding="utf-8"))
    fields = {"TITLE": html.escape(room.game.ruleset.title), "LANG": lang, "TOKEN": html.escape(token),
              "BASE": html.escape(base),
              "PAGE": name, "LABELS": html.escape(json.dumps(labels, ensure_ascii=False)), **extra}
    for k, v in fields.items():
        body = body.replace("{{" + k + "}}", v)
    return HTMLResponse(body)


def create_app(room: Room) -> Starlette:
    """The ASGI app serving one room."""
    hub = Hub(room)

    def seat_or_refuse(token: str, roles=("player", "spectator", "host")):
        s = room.seat(token)
        if s.role not in roles:
            raise Refused(f"this link is for a {s.role}; it cannot open this page", 403)
        return s

    def page_for(request, name: str, roles: tuple, **extra) -> HTMLResponse:
        """A page for the holder of the token in the path, or a refusal page."""
        token = request.path_params["token"]
        try:
            seat_or_refuse(token, roles)
        except Refused as e:
            return HTMLResponse(f"<h1>{html.escape(str(e))}</h1>", status_code=e.status)
        return _page(name, room, token, _lang(request, room), request.scope.get("root_path", ""),
                     **{k: v(token) for k, v in extra.items()})

    async def index(request):
        return _page("index", room, "", _lang(request, room), request.scope.get("root_path", ""))

    async def table_page(request):
        return page_for(request, "table", ("player", "spectator"))

    def seat_links(request, token: str) -> str:
        lang = _lang(request, room)
        text = room.text(lang)
        base = str(request.base_url).rstrip("/")
        players = room.payload(room.spectator_token, lang)["model"]["players"]
        rows = []
        for i, kind in enumerate(room.seats):
            label = html.escape(players[i]["label"])
            if kind == "human":
                url = f"{base}/seat/{room.player_token(i)}"
                rows.append(f'<li>{label}: <a class="seat-link" href="{url}">{url}</a></li>')
            else:
                rows.append(f"<li>{label}: {html.escape(kind)}</li>")
        spec = f"{base}/watch/{room.spectator_token}"
        replay = html.escape(text.msg("table-ui-replay"))
        return (f"<ul>{''.join(rows)}</ul><p>{html.escape(text.msg('table-ui-spectator'))}: "
                f'<a id="spectator-link" href="{spec}">{spec}</a></p>'
                f'<p><a id="replay-link" href="{base}/replay/{token}">{replay}</a></p>')

    async def host_page(request):
        return page_for(request, "host", ("host",), SEATS=lambda token: seat_links(request, token))

    async def replay_page(request):
        return page_for(request, "replay", ("host",))

    async def api_view(request):
        try:
            out = JSONResponse(room.payload(request.path_params["token"], _lang(request, room)))
            hub.kick()
            return out
        except Refused as e:
            return _refusal(e)

    async def api_choose(request):
        token = request.path_params["token"]
        try:
            if not guard.origin_ok(request.headers):
                raise guard.Rejected("this request comes from a page of another site", 403)
            body = await guard.read_body(request)  # bounded in size and depth before it is parsed
        except guard.Rejected as e:
            return _refusal(Refused(str(e), e.status))
        try:
            await hub.choose(token, body.get("option"), body.get("version"))
            return JSONResponse(room.payload(token, _lang(request, room)))
        except Refused as e:
            return _refusal(e)

    async def api_history(request):
        """Every event the seat may read, and where its last decision was (the page's whole history)."""
        try:
            s = seat_or_refuse(request.path_params["token"], ("player", "spectator"))
            view = room.state.view(s.index)
            return JSONResponse(history(view, room.text(_lang(request, room))))
        except Refused as e:
            return _refusal(e)

    async def api_save(request):
        try:
            if not guard.origin_ok(request.headers):
                raise Refused("this request comes from a page of another site", 403)
            seat_or_refuse(request.path_params["token"], ("host",))
            async with hub.lock:
                path = await asyncio.to_thread(room.save)
        except Refused as e:
            return _refusal(e)
        return JSONResponse({"type": "saved", "file": str(path)})

    async def api_replay(request):
        try:
            seat_or_refuse(request.path_params["token"], ("host",))
            q = request.query_params
            seat = q.get("seat", "")
            step = q.get("step", "")
            seat_i = None if seat in ("", "spectator") else int(seat) if seat.isdigit() and len(seat) < 7 else seat
            step_i = int(step) if step.isdigit() and len(step) < 10 else None if step == "" else step
            async with hub.lock:
                rep = room_replay(room)
            out = rep.payload(rep.steps if step_i is None else step_i, seat_i, room.text(_lang(request, room)))
        except Refused as e:
            return _refusal(e)
        return JSONResponse(out)

    async def card(request):
        lang = request.path_params["lang"]
        cid = request.path_params["card"]
        if lang not in room.languages or (cid != "hidden" and cid not in room.game.program.card_index):
            return Response("no such card", status_code=404, media_type="text/plain")
        return Response(card_face(room, cid, lang), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    async def ws_endpoint(ws: WebSocket):
        token = ws.path_params["token"]
        lang = _lang(ws, room)
        await ws.accept()
        try:
            if not guard.origin_ok(ws.headers):  # a page of another site holding a seat link
                raise Refused("this connection comes from a page of another site", 403)
            room.seat(token)
        except Refused as e:
            await hub.send(ws, {"type": "refused", "message": str(e)})
            await ws.close(code=4403)
            return
        hub.sockets[ws] = (token, lang)
        await hub.send(ws, room.payload(token, lang))
        hub.kick()  # (a lone Pass waiting since the table was made)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                try:
                    msg = guard.parse_message(frame.get("text"))  # None: a binary frame
                    await hub.handle(token, msg)
                except guard.Rejected as e:
                    await hub.send(ws, {"type": "refused", "message": str(e)})
                except Refused as e:
                    await hub.send(ws, {"type": "refused", "message": str(e)})
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets.pop(ws, None)

    routes = [
        Route("/", index),
        Route("/seat/{token}", table_page),
        Route("/watch/{token}", table_page),
        Route("/host/{token}", host_page),
        Route("/replay/{token}", replay_page),
        Route("/api/view/{token}", api_view),
        Route("/api/choose/{token}", api_choose, methods=["POST"]),
        Route("/api/save/{token}", api_save, methods=["POST"]),
        Route("/api/history/{token}", api_history),
        Route("/api/replay/{token}", api_replay),
        Route("/cards/{lang}/{card}.svg", card),
        WebSocketRoute("/ws/{token}", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.room = room
    app.state.hub = hub
    return app
