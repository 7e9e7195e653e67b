"""Decisions: the legal options of a pending question, their stable ids, and taking one.

Pipeline position: engine. An option id is built from stable names, never from positions:
an action is `action` or `action:arg,arg`; a card is its card id (copies of one card are one
option), a player is the id of the card naming it (or pN), a location its id. Taking an
option writes the answer into the suspended frame (or pushes the chosen action's code) and
logs it for whoever may see it.
"""

from __future__ import annotations

from ..runtime.options import ACT_LOG, PASS, Option, act_options


def player_id(st, p) -> str:
    return st.g.player_id(st, p)


def value_id(st, v, t: str) -> str:
    """The stable id of one value of type t."""
    if v is None:
        return "none"
    if t == "card":
        return st.g.inst_ids[v]
    if t == "kind":
        return st.g.card_ids[v]
    if t == "player":
        return player_id(st, v)
    if t == "loc":
        return st.g.loc_ids[v]
    if t == "bool":
        return "yes" if v else "no"
    return str(v)


_new = tuple.__new__  # Option(...) without the NamedTuple constructor's extra call
STATIC_TYPES = frozenset({"card", "kind", "loc", "bool", "int", "str"})  # ids that never change


def options_of(st) -> list[Option]:
    pend = st.pending
    if pend["k"] != "choose":
        return act_options(st, pend, st.g.legal_options(st, pend))
    out: list[Option] = []
    t = pend["t"]
    seen = set()
    if t in STATIC_TYPES:  # the option of a card, a word, a number...: built once per table
        cache = st.g.choose_opts.get(t)
        if cache is None:
            cache = st.g.choose_opts[t] = {}
        for v in pend["items"]:
            o = cache.get(v)
            if o is None:
                oid = value_id(st, v, t)
                o = cache[v] = _new(Option, (oid, oid, (t,), v))
            if o[0] not in seen:
                seen.add(o[0])
                out.append(o)
    else:
        targs = (t,)
        for v in pend["items"]:
            oid = value_id(st, v, t)
            if oid in seen:
                continue
            seen.add(oid)
            out.append(_new(Option, (oid, oid, targs, v)))
    if pend.get("opt"):
        out.append(PASS)
    return out


def take(st, opt: Option) -> None:
    """Answer the pending decision with opt (already known to be legal)."""
    pend = st.pending
    st.pending = None
    fr = st.stack[-1]
    if st.record:
        for f in st.stack:  # an action suspended by this question: its entry was shown already
            if f[0] == ACT_LOG:
                f[2]["late"] = True
    if pend["k"] == "choose":
        fr[2][pend["var"]] = opt.value
        if st.record:
            _log_choice(st, pend, opt)
        return
    if opt.value is None:
        fr[2][pend["var"]] = None
        if st.record:
            st.history.append(opt.id)
            st.log_event("passed", [pend["p"]], None, ["player"], ["player"])
        return
    aid, args = opt.value
    a = st.g.actions[aid]
    fr[2][pend["var"]] = aid
    st.kinds = st.kinds + (a.kind,)
    if args:
        loc = dict(zip(a.arg_names, args))
        loc["me"] = pend["p"]
    else:
        loc = {"me": pend["p"]}
    if st.record:  # (a game without a log keeps no history either)
        st.history.append(opt.id)
        _log_act(st, pend["p"], a, aid, args)
    st.stack.append([a.code_id, 0, loc, None])


def _log_choice(st, pend, opt) -> None:
    st.history.append(opt.id)
    p = pend["p"]
    if opt.value is None:
        st.log_event("passed", [p], None, ["player"], ["player"])
    elif pend["t"] == "card":
        st.log_event("chose", [p, opt.value, pend["prompt"]], [p], ["player", "card", "str"],
                     ["player", "choice", "prompt"])
    else:
        st.log_event("chose", [p, opt.value, pend["prompt"]], None, ["player", pend["t"], "str"],
                     ["player", "choice", "prompt"])


def _log_act(st, p, a, aid, args) -> None:
    types = ["player", "str"] + list(a.arg_types)
    names = ["player", "action", *a.arg_names]
    st.log_event("act", [p, aid, *args], [p], types, names)
    if a.private:
        return
    # Who may read the action's cards is known only once it has run (a card played onto
    # the table is public; a card offered face down is not): log it for the actor now,
    # and let a frame under the action's own settle the readers when it is done.
    if not a.public and any(t == "card" for t in a.arg_types):
        st.stack.append([ACT_LOG, 0, {"i": len(st.log) - 1}, None])
    else:
        st.log[-1] = st.log[-1][:3] + [-1] + st.log[-1][4:]
