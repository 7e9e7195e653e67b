"""The blocking built-ins of the effect language: choose, choose_many, act, window, run, emit
(calls of the ruleset's procedures are in procedures.py).

Pipeline position: compiler (effects/); the instructions they emit run on the engine's
loop and hand options to it through the runtime (runtime/options.py). They may ask a
player to decide, so they compile to VM instructions (not expressions): an instruction
that needs an answer sets `state.pending` and returns SUSPEND; `apply` writes the answer
into the frame and the next instruction goes on. Registered in builtins.TABLE.
"""

from __future__ import annotations

import difflib

from ..runtime.options import act_options
from ..runtime.vm import SUSPEND, Jump
from .procedures import note_call_types
from .scope import CheckError
from .types import elem, is_list, list_of, show

MAX_FREE = 1_000  # free actions taken in one act(): more is a free action with no cost or limit


def _ident(bound_item) -> str:
    """The word written for an `ident` parameter (a bare name, not evaluated)."""
    return bound_item[1][6:]


def _item_type(comp, call, t, src):
    et = elem(t)
    if et == "kind":
        comp.problem(src, call, "choose() offers card ids here; offer cards from a zone "
                     "(cards(z)) or strings instead")
        raise CheckError
    return et


def stmt_choose(comp, b, call, var, src, scope, code):
    bound = b.bind_compiled(comp, call, src, scope)
    (pf, _), (xf, xt), (prompt, _), (optf, _) = bound
    if not is_list(xt):
        comp.problem(src, call.args[1] if len(call.args) > 1 else call,
                     f"choose() offers a list, found {show(xt)}")
        raise CheckError
    et = _item_type(comp, call, xt, src)
    prompt_id = _ident(bound[2]) if bound[2][1].startswith("ident:") else "choose"
    comp.p.prompts.add(prompt_id)
    comp.p.prompt_types.setdefault(prompt_id, set()).add(et)
    comp.p.prompt_scopes.setdefault(prompt_id, []).append(dict(scope.names))
    target = var or scope.hidden("ans")

    def ins(st, fr):
        items = list(xf(st, fr))
        opt = bool(optf(st, fr))
        if not items and not opt:  # an optional question is asked all the same (only `pass`)
            fr[2][target] = None
            return None
        p = pf(st, fr)
        if et == "card":
            _show_to(st, items, p)
        st.pending = {"k": "choose", "p": p, "items": items, "t": et,
                      "prompt": prompt_id, "opt": opt, "var": target}
        return SUSPEND
    comp.emit(code, ins, src, call)
    return et


def stmt_choose_many(comp, b, call, var, src, scope, code):
    bound = b.bind_compiled(comp, call, src, scope)
    (pf, _), (xf, xt), (kf, _), (prompt, _), (minf, mint) = bound
    et = _item_type(comp, call, xt, src)
    prompt_id = _ident(bound[3]) if bound[3][1].startswith("ident:") else "choose"
    comp.p.prompts.add(prompt_id)
    comp.p.prompt_types.setdefault(prompt_id, set()).add(et)
    comp.p.prompt_scopes.setdefault(prompt_id, []).append(dict(scope.names))
    target = var or scope.hidden("many")
    items_v, picked_v, ans_v, k_v, min_v = (scope.hidden(x) for x in ("items", "picked", "ans", "k", "min"))
    scope.names[items_v] = xt
    scope.names[picked_v] = list_of(et)

    def init(st, fr):
        loc = fr[2]
        loc[items_v] = list(xf(st, fr))
        loc[picked_v] = []
        k = kf(st, fr)
        loc[k_v] = k
        m = minf(st, fr)
        loc[min_v] = k if m is None or m < 0 else min(m, k)
    comp.emit(code, init, src, call)
    end = Jump()

    def head(st, fr):
        loc = fr[2]
        picked, items = loc[picked_v], loc[items_v]
        if len(picked) >= loc[k_v] or not items:
            loc[target] = picked
            fr[1] = end.target
            return None
        p = pf(st, fr)
        if et == "card":
            _show_to(st, items, p)
        st.pending = {"k": "choose", "p": p, "items": items, "t": et, "prompt": prompt_id,
                      "opt": len(picked) >= loc[min_v], "var": ans_v, "picked": picked}
        return SUSPEND
    h = comp.emit(code, head, src, call)

    def after(st, fr):
        loc = fr[2]
        a = loc.pop(ans_v, None)
        if a is None:
            loc[target] = loc[picked_v]
            fr[1] = end.target
            return None
        loc[picked_v] = loc[picked_v] + [a]
        items = list(loc[items_v])
        items.remove(a)
        loc[items_v] = items
        fr[1] = h
        return None
    comp.emit(code, after, src, call)
    end.target = len(code.instrs)
    return list_of(et)


def _show_to(st, cards, p) -> None:
    """A player offered cards to choose from sees them (until they move)."""
    if p is None:
        return
    bit = 1 << p
    seen = st.seen
    for c in cards:
        seen[c] |= bit


def _check_group(comp, bound_item, call, src):
    g = _ident(bound_item)
    if g not in comp.p.groups:
        close = difflib.get_close_matches(g, list(comp.p.groups), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        comp.problem(src, call, f"no action belongs to group {g!r}{hint}")
        raise CheckError
    return g


def stmt_act(comp, b, call, var, src, scope, code):
    bound = b.bind_compiled(comp, call, src, scope)
    (pf, _), gb, (optf, _) = bound
    group = _check_group(comp, gb, call, src)
    target = var or scope.hidden("act")
    free_n = scope.hidden("free")
    actions = comp.p.actions

    def ins(st, fr):
        pend = st.pending = {"k": "act", "p": pf(st, fr), "g": group, "opt": bool(optf(st, fr)), "var": target}
        legal = st.g.legal_options(st, pend)
        if not legal:
            st.pending = None
            fr[2][target] = None
            return None
        st._opts = act_options(st, pend, legal)
        return SUSPEND
    at = comp.emit(code, ins, src, call)

    def again(st, fr):  # a free action asks the question again
        a = fr[2].get(target)
        if a is not None and actions[a].free:
            n = fr[2][free_n] = fr[2].get(free_n, 0) + 1
            if n > MAX_FREE:  # an always-legal free action would ask forever
                raise RuntimeError(f"free action {a!r} was taken more than {MAX_FREE} times in one "
                                   f"act(): a free action needs a cost or a limit (once_per_turn)")
            fr[1] = at
    comp.emit(code, again, src, call)
    return "str"


def stmt_window(comp, b, call, var, src, scope, code):
    bound = b.bind_compiled(comp, call, src, scope)
    (psf, _), gb, (untilf, _), (askf, _) = bound
    group = _check_group(comp, gb, call, src)
    ps, i, passes, ans = (scope.hidden(x) for x in ("wps", "wi", "wpass", "wans"))

    def init(st, fr):
        loc = fr[2]
        loc[ps] = list(psf(st, fr))
        loc[i] = 0
        loc[passes] = 0
    comp.emit(code, init, src, call)
    end = Jump()

    def head(st, fr):
        loc = fr[2]
        players = loc[ps]
        if not players or loc[passes] >= len(players) or untilf(st, fr):
            fr[1] = end.target
            return None
        p = players[loc[i] % len(players)]
        loc[i] += 1
        pend = {"k": "act", "p": p, "g": group, "opt": True, "var": ans}
        legal = None
        if p is None or (not askf(st, fr) and not (legal := st.g.legal_options(st, pend))):
            # nobody is asked who could only pass, unless ask_all: then everyone is asked,
            # so whether a player is asked tells the others nothing about that player's hand
            loc[passes] += 1
            fr[1] = h  # ask the next player
            return None
        st.pending = pend
        if legal is not None:
            st._opts = act_options(st, pend, legal)
        return SUSPEND
    h = comp.emit(code, head, src, call)

    def after(st, fr):
        loc = fr[2]
        if loc.pop(ans, None) is None:
            loc[passes] += 1
        else:
            loc[passes] = 0
        fr[1] = h
    comp.emit(code, after, src, call)
    end.target = len(code.instrs)
    return "none"


def stmt_run(comp, b, call, var, src, scope, code):
    bound = b.bind_compiled(comp, call, src, scope)
    (xf, xt), hb, *rest = bound
    hook = _ident(hb)
    arg_fns = [f for f, _ in rest]
    p = comp.p
    arity = p.hook_arity.get(hook)
    if arity is None:
        comp.problem(src, call, f"no card or location has a hook named {hook!r}")
        raise CheckError
    if arity != len(arg_fns):
        comp.problem(src, call, f"hook {hook!r} takes {arity} argument{'s' if arity != 1 else ''}, "
                     f"found {len(arg_fns)}")
        raise CheckError
    if xt not in ("card", "loc", "kind", "any", "none"):
        comp.problem(src, call, f"run() needs a card or a location, found {show(xt)}")
        raise CheckError
    is_loc = xt == "loc"
    is_kind = xt == "kind"

    def ins(st, fr):
        x = xf(st, fr)
        if x is None:
            return None
        g = st.g
        if is_loc:
            entry = g.loc_hooks[x].get(hook)
        else:
            entry = g.kind_hooks[x if is_kind else g.card_def[x]].get(hook)
        if entry is None:
            return None
        code_id, params = entry
        loc = dict(zip(params, [f(st, fr) for f in arg_fns]))
        loc["here" if is_loc else "this"] = x
        loc["me"] = fr[2].get("me")
        st.stack.append([code_id, 0, loc, var])
        return None
    comp.emit(code, ins, src, call)
    note_call_types(comp.p, ("hook", hook), [t for _, t in rest])
    return "any"


def stmt_emit(comp, b, call, var, src, scope, code):
    bound = b.bind_compiled(comp, call, src, scope)
    ev = _ident(bound[0])
    arg_fns = [f for f, _ in bound[1:]]
    comp.p.events_emitted.add(ev)

    def ins(st, fr):
        trig = st.g.triggers.get(ev)
        if not trig:
            return None
        vals = [f(st, fr) for f in arg_fns]
        me = fr[2].get("me")
        for code_id, names in reversed(trig):
            loc = dict(zip(names, vals))
            loc["me"] = me
            st.stack.append([code_id, 0, loc, None])
        return None
    comp.emit(code, ins, src, call)
    note_call_types(comp.p, ("event", ev), [t for _, t in bound[1:]])
    return "none"
