"""The open websockets of one room, the lock that puts decisions in one line, and the answers
a seat gives by itself.

Pipeline position: between the web app's routes (`web/app.py`) and the room. Every decision
(a click, a bot's, a seat's answer by itself) is taken under the lock, then every socket is sent its
own seat's payload. A lone Pass held before it is answered (`Room.hold`, when another human
sits at the table) is answered by one background task: the table is pushed as it stands (the
seat "decides", as after any question), the hold passes, then the pass is taken like a click,
so the other seats receive exactly the messages a click on Pass would have sent them.
"""

from __future__ import annotations

import asyncio
import json

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import takeback
from .room import Refused, Room


class Hub:
    """The sockets of one room, and the one line decisions are taken in."""

    def __init__(self, room: Room):
        self.room = room
        self.lock = asyncio.Lock()
        self.sockets: dict[WebSocket, tuple[str, str]] = {}  # socket -> (token, lang)
        self._settling: asyncio.Task | None = None

    async def send(self, ws: WebSocket, data: dict) -> None:
        try:
            await ws.send_text(json.dumps(data, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError):
            self.sockets.pop(ws, None)

    async def broadcast(self) -> None:
        if self.room.persist is not None:  # (kept before it is shown: a shown move is never lost)
            await asyncio.to_thread(self.room.persist, self.room)
        for ws, (token, lang) in list(self.sockets.items()):
            await self.send(ws, self.room.payload(token, lang))

    async def choose(self, token: str, option, version) -> None:
        async with self.lock:
            room = self.room
            room.seat(token)  # a wrong token is refused before anything else is looked at
            await asyncio.to_thread(room.choose, token, option, version)
        await self.broadcast()
        self.kick()

    async def set_autopass(self, token: str, on, kind: str = "autopass") -> None:
        async with self.lock:
            self.room.set_autopass(token, on, kind)
            if self.room.persist is not None:
                await asyncio.to_thread(self.room.persist, self.room)
        ws_of = [ws for ws, (t, _) in self.sockets.items() if t == token]
        for ws in ws_of:  # (only this seat's page shows its setting)
            await self.send(ws, self.room.payload(token, self.sockets[ws][1]))
        self.kick()

    async def handle(self, token: str, msg) -> None:
        """One message of a socket: a choice, a plan (several choices in one step), a seat's setting,
        a line of chat, a take-back asked or answered; anything else is refused."""
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "choose":
            await self.choose(token, msg.get("option"), msg.get("version"))
        elif kind in ("autopass", "autoone"):
            await self.set_autopass(token, msg.get("on"), kind)
        elif kind == "plan":
            async with self.lock:
                self.room.seat(token)
                await asyncio.to_thread(self.room.choose_plan, token, msg.get("options"), msg.get("version"))
            await self.broadcast()
            self.kick()
        elif kind == "takeback":
            async with self.lock:
                if "accept" in msg:
                    await asyncio.to_thread(takeback.answer, self.room, token, msg.get("accept"))
                else:
                    await asyncio.to_thread(takeback.ask, self.room, token)
            await self.broadcast()
            self.kick()
        elif kind == "ahead":
            async with self.lock:
                self.room.answer_ahead(token, msg.get("option"))
            for ws in [w for w, (t, _) in self.sockets.items() if t == token]:  # (this seat's page only)
                await self.send(ws, self.room.payload(token, self.sockets[ws][1]))
        elif kind == "chat":
            async with self.lock:
                self.room.say(token, msg.get("text"))
            await self.broadcast()
        else:
            raise Refused('send {"type": "choose", "option": ID, "version": N}', 400)

    # ---- a lone Pass, held then answered ---------------------------------------------------

    def kick(self) -> None:
        """Start answering held lone Passes, unless that is under way already."""
        if self.room.auto_pending() is None or (self._settling and not self._settling.done()):
            return
        self._settling = asyncio.get_running_loop().create_task(self.settle())

    async def settle(self) -> None:
        room = self.room
        while (auto := room.auto_pending()) is not None:
            await asyncio.sleep(room.hold_seconds())
            async with self.lock:
                if room.auto_pending() != auto:  # (the seat clicked, or turned it off, meanwhile)
                    continue
                token, version, option = auto
                await asyncio.to_thread(room.choose, token, option, version)
            await self.broadcast()
