"""One game played at a web table: seats, secret tokens, bots, refusals, saves and replays.

Pipeline position: between the engine and the web app (`web/app.py`). A `Room` holds the one
real State; everything it hands out is built by `payload(seat)` from `view(seat)` (the table
model) and, for the seat that decides, its own labelled options, so no message to a browser
is made from the state itself. `choose(token, option, version)` refuses, with a clear
message and no change, a wrong token, a spectator, a seat that is not deciding, a stale
view (version) and an option id that is not exactly one of the legal ones; otherwise it
takes the option and lets the bots play until a human decides or the game ends.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from pathlib import Path

from ...i18n import Text
from ...i18n.languages import languages_of
from .. import decision_model, rules_of, table_model
from ..auto import auto_answer, same_question
from ..board import waiting_prompt
from ..history import add_history
from .guard import short

# How long a seat's lone Pass is held before it is answered, in seconds (drawn uniformly, by a
# generator that is not the game's): when another human sits at the table, an answer given the
# instant the question came would tell that human the seat had nothing to decide.
HOLD = (0.8, 2.4)
PLAN_MAX = 64  # the most steps one plan may hold
CHAT_LEN, CHAT_SHOWN = 500, 100  # the longest line of the chat, and how many of the last are sent


class Refused(Exception):
    """A browser's request that changes nothing: the message says why."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


@dataclass
class Seat:
    """Who a token belongs to: a player index, or None for the spectator or the host."""

    index: int | None
    role: str  # "player", "spectator" or "host"


def make_bots(game, seats: list[str], seed: int) -> dict:
    """A bot for every seat that is not human, by the bot factory's names."""
    from ...bots import make_bot
    bots = {}
    for i, kind in enumerate(seats):
        if kind == "human":
            continue
        try:
            bots[i] = make_bot(kind, seed * 1000 + i, game)
        except ValueError as e:
            raise ValueError(f"seat {i + 1}: unknown seat kind {kind!r} (human, or a bot: {e})") from None
    return bots


class Room:
    """The game of one `grimoire serve`: its state, seats and the tokens of their links."""

    def __init__(self, game, state, seats: list[str], seed: int, lang: str = "en",
                 save_path: str | Path | None = None, bots: dict | None = None, autopass: bool = True,
                 hold: tuple[float, float] | None = None, tokens: dict | None = None, autoone: bool = True):
        self.game = game
        # the state and its version, replaced together (bots play in a worker thread while the
        # event loop may be building a payload: it must never pair a state with another's version)
        self._now = (state, 0)
        self.seats = seats
        self.seed = seed
        self.lang = lang
        self.save_path = Path(save_path) if save_path else Path(f"{game.ruleset.id}.save.json")
        self.bots = bots if bots is not None else make_bots(game, seats, seed)
        # every link's secret: new ones, or those of `tokens` (a lobby's table resumed: its links stay)
        old = tokens or {}
        self.tokens: dict[str, Seat] = {}
        for i, kind in enumerate(seats):
            if kind == "human":
                self.tokens[old.get("players", {}).get(str(i)) or secrets.token_urlsafe(16)] = Seat(i, "player")
        self.spectator_token = old.get("spectator") or secrets.token_urlsafe(16)
        self.host_token = old.get("host") or secrets.token_urlsafe(16)
        self.tokens[self.spectator_token] = Seat(None, "spectator")
        self.tokens[self.host_token] = Seat(None, "host")
        self._texts: dict[str, Text] = {}
        self.languages = languages_of(game.path)  # English and every language with a locale file
        # a human seat answers a lone Pass by itself unless it turns that off (its page's box)
        self.autopass = {i: autopass for i, kind in enumerate(seats) if kind == "human"}
        # and takes its only option by itself (a question it has no choice in), unless turned off
        self.autoone = {i: autoone for i in self.autopass}
        # a setup question answered ahead by a seat that waits: seat -> (question, option id)
        self.ahead: dict[int, tuple[tuple, str]] = {}
        humans = len(self.autopass)
        self.hold = hold if hold is not None else HOLD if humans > 1 else (0.0, 0.0)
        self._hold_rng = random.SystemRandom()
        self.chat: list[dict] = []  # what the players said at the table, in order
        self.takeback: dict | None = None  # a take-back asked and not yet answered (web/takeback.py)
        self.persist = None  # called after every change, when set (a lobby's table is kept on disk)
        self.play_bots()

    @property
    def state(self):
        return self._now[0]

    @property
    def version(self) -> int:
        """One more after every decision taken: a click on an older version is stale."""
        return self._now[1]

    def _advance(self, state) -> None:
        self._now = (state, self._now[1] + 1)

    # ---- who is who ---------------------------------------------------------------------

    def seat(self, token: str) -> Seat:
        """The seat a token names, or a refusal (a wrong token learns nothing)."""
        s = self.tokens.get(token) if isinstance(token, str) else None
        if s is None:
            raise Refused("unknown link: this token names no seat at this table", 403)
        return s

    def links(self) -> dict:
        """Every link's secret, as `tokens=` takes them back."""
        return {"players": {str(s.index): t for t, s in self.tokens.items() if s.role == "player"},
                "spectator": self.spectator_token, "host": self.host_token}

    def player_token(self, index: int) -> str:
        return next(t for t, s in self.tokens.items() if s.index == index)

    def text(self, lang: str | None = None) -> Text:
        """The game's text in a language (cached per language)."""
        lang = lang or self.lang
        if lang not in self._texts:
            self._texts[lang] = Text(self.game.program, lang)
        return self._texts[lang]

    # ---- what a seat is sent ------------------------------------------------------------

    def payload(self, token: str, lang: str | None = None) -> dict:
        """What the seat of `token` may see now: its table model and, if it decides, its options."""
        s = self.seat(token)
        state, version = self._now
        out = seat_payload(self.game.program, state, s.index, self.text(lang), version, role=s.role)
        out["chat"] = self.chat[-CHAT_SHOWN:]
        req = self.takeback
        out["takeback"] = None if req is None else {"seat": req["seat"], "from": req["from"],
                                                    "accepted": list(req["accepted"])}
        if s.index is not None:  # (the seat's own settings: sent to that seat only)
            out["seat"] = s.index
            out["autopass"] = self.autopass[s.index]
            out["autoone"] = self.autoone[s.index]
            out["ahead"] = {"open": ahead_open(state, s.index), "option": (self.ahead.get(s.index) or (None, None))[1]}
            if out["decision"] is not None:
                out["decision"]["auto"] = self._auto_seat(state) == s.index
        return out

    # ---- answers a seat gives by itself --------------------------------------------------

    def _auto_option(self, st) -> str | None:
        """The option the deciding seat answers by itself now, by its settings (None: it is asked)."""
        p = st.current_player()
        if p not in self.autopass:
            return None
        return auto_answer(st, p, self.autopass[p], self.autoone[p])

    def _auto_seat(self, st) -> int | None:
        return st.current_player() if self._auto_option(st) is not None else None

    def auto_pending(self) -> tuple[str, int, str] | None:
        """(token, version, option) of the seat that answers by itself now, if one does."""
        st, version = self._now
        option = self._auto_option(st)
        return None if option is None else (self.player_token(st.current_player()), version, option)

    def set_autopass(self, token: str, on, kind: str = "autopass") -> None:
        """Turn a seat's answer by itself on or off: its lone Pass ("autopass") or its only option ("autoone")."""
        s = self.seat(token)
        if s.index is None:
            raise Refused(f"a {s.role} does not decide at this table")
        if not isinstance(on, bool):
            raise Refused(f'send {{"type": "{kind}", "on": true or false}}', 400)
        (self.autoone if kind == "autoone" else self.autopass)[s.index] = on

    def answer_ahead(self, token: str, option) -> None:
        """While the table waits on another seat's setup question (a `choose`), write down this
        seat's answer to the same question; it is taken when the seat is asked that question, if
        it is one of its options then, and dropped at its next question either way. None: drop it."""
        s = self.seat(token)
        if s.index is None:
            raise Refused(f"a {s.role} does not decide at this table")
        if option is None:
            self.ahead.pop(s.index, None)
            return
        if not isinstance(option, str) or not option or len(option) > 200:
            raise Refused('send {"type": "ahead", "option": ID or null}', 400)
        st = self.state
        if not ahead_open(st, s.index):
            raise Refused("nothing can be answered ahead now (only a setup question asked of another seat)")
        self.ahead[s.index] = (question_of(st.pending), option)

    def say(self, token: str, said) -> None:
        """A player's line in the table's chat (the words of a person: nobody's secret but theirs)."""
        s = self.seat(token)
        if s.index is None:
            raise Refused(f"a {s.role} does not speak at this table")
        if not isinstance(said, str) or not said.strip() or len(said) > CHAT_LEN:
            raise Refused(f'send {{"type": "chat", "text": "..."}} (1 to {CHAT_LEN} characters)', 400)
        self.chat.append({"n": len(self.chat) + 1, "from": self.text().player(self.state, s.index),
                          "seat": s.index, "text": said.strip()})

    def hold_seconds(self) -> float:
        lo, hi = self.hold
        return lo if hi <= lo else self._hold_rng.uniform(lo, hi)

    # ---- deciding -----------------------------------------------------------------------

    def choose(self, token: str, option, version, bots: bool = True) -> None:
        """Take `option` for the seat of `token`, or refuse and change nothing."""
        s = self.seat(token)
        st = self.state
        if s.index is None:
            raise Refused(f"a {s.role} does not decide at this table")
        if st.is_over():
            raise Refused("the game is over; there is nothing to decide")
        if type(version) is not int or version != self.version:
            raise Refused(f"this view is out of date (version {short(version)}, now {self.version}): "
                          "the table has moved on; choose again from the new view")
        p = st.current_player()
        if p != s.index:
            who = self.text().player(st, p)  # (whose turn it is: every seat sees that)
            raise Refused(f"it is not your decision now: the table waits for {who}")
        ids = [o.id for o in st.options()]
        if not isinstance(option, str) or option not in ids:
            raise Refused(f"{short(option)} is not one of your options now", 400)
        nxt = st.apply(option)
        if not nxt:  # (cannot happen for an exact legal id; kept so nothing is ever half-done)
            raise Refused(nxt.message)
        self._advance(nxt)
        if bots:
            self.play_bots()

    def choose_plan(self, token: str, steps, version) -> int:
        """Take several options of the seat of `token` in one step (the plan of a hand-out): the
        first as `choose` would, then each next while the same question is asked of the same
        seat again and it is one of the options; stop at the first that is not (the seat is then
        asked as usual). The decisions are those the clicks would be. Return how many were taken."""
        if not isinstance(steps, list) or not steps or len(steps) > PLAN_MAX or not all(
                isinstance(x, str) for x in steps):
            raise Refused(f'send {{"type": "plan", "options": [ID, ...], "version": N}} (1 to {PLAN_MAX} ids)', 400)
        asked = self.state.pending
        self.choose(token, steps[0], version, bots=False)
        n = 1
        for option in steps[1:]:
            st = self.state
            if st.is_over() or not same_question(st.pending, asked) or option not in {o.id for o in st.options()}:
                break
            self._advance(st.apply(option))
            n += 1
        self.play_bots()
        return n

    def _take_ahead(self, p: int) -> str | None:
        """Seat p's answer written ahead, if it answers the question p is asked now (dropped anyway)."""
        ahead = self.ahead.pop(p, None)
        st = self.state
        if ahead is None or ahead[0] != question_of(st.pending) or ahead[1] not in {o.id for o in st.options()}:
            return None
        return ahead[1]

    def play_bots(self) -> int:
        """Let bot seats decide until a human decides or the game ends; return how many moves.
        Without a hold, what a human seat answers by itself is answered here too (with one, by the hub)."""
        n = 0
        while not self.state.is_over():
            p = self.state.current_player()
            if p in self.bots:
                option = bot_choice(self.bots[p], self.state)
            elif self.hold[1] <= 0 and self._auto_option(self.state) is not None:
                option = self._auto_option(self.state)
            elif (option := self._take_ahead(p)) is None:
                break
            nxt = self.state.apply(option)
            if not nxt:
                raise RuntimeError(f"bot of seat {p + 1} chose an illegal option: {nxt.message}")
            self._advance(nxt)
            n += 1
        return n

    # ---- saves ----------------------------------------------------------------------------

    def save(self, path: str | Path | None = None) -> Path:
        """Write the game to a save file `grimoire play --load` and `serve --load` read."""
        from ...saves import write_save
        path = Path(path) if path else self.save_path
        write_save(path, self.game, self.state, self.seats, self.lang)
        return path


def question_of(pend) -> tuple:
    """What a question asks, whoever is asked it: its kind and prompt."""
    return pend["k"], pend.get("prompt"), pend.get("g")


def ahead_open(st, seat: int) -> bool:
    """May `seat` answer ahead now: the game is in its setup and asks another seat a `choose`?
    (The phase, who is asked and the prompt are public: the leak check compares them.)"""
    pend = st.pending
    return (not st.is_over() and pend is not None and st.phase == "setup" and pend["k"] == "choose"
            and pend["p"] != seat)


def bot_choice(bot, state) -> str:
    """The option a bot picks (the one place that knows how a bot is asked)."""
    return bot.choose(state)


WEB_EVENTS = 40  # a page has room for more of the log than a terminal screen (it scrolls)


def seat_payload(program, state, index: int | None, text: Text, version: int, role: str = "player") -> dict:
    """The message for one seat (None: the public view): table model, own options, version."""
    view = state.view(index)
    model = add_history(table_model(program, view, text, WEB_EVENTS), view, text, program)
    decision = decision_model(state, index, text) if index is not None else None
    model["waiting_prompt"] = waiting_prompt(state, index, text)  # what the table waits on (public)
    return {"type": "view", "version": version, "role": role, "model": model, "decision": decision,
            "rules": rules_of(text, model, decision)}
