"""`State.clone`, kept interpreted in a compiled install.

Pipeline position: engine, beside state.py, which binds `clone` as the State method. This
module is not in runtime/native.py's COMPILED on purpose: the body is two dozen slot loads and
stores, which CPython specializes (LOAD_ATTR_SLOT, STORE_ATTR_SLOT) and Cython's generic
attribute access does not, so compiled it ran slower than interpreted (770k compiled against
830k interpreted clones/s of a mid-game state; benchmarks/results/engine-after5.txt).
"""

from __future__ import annotations

_new = object.__new__


def clone(self) -> State:  # noqa: F821 - engine/state.py's State
    """An independent copy (static tables shared; the log and the zones' card lists
    shared copy-on-write: a zone's list is copied by the first move that changes it,
    `ops.zone_w`, in whichever of the two states moves first)."""
    s = _new(type(self))
    s.g = self.g
    s.n = self.n
    s.zones = self.zones[:]
    s._zown = self._zown = 0  # bit z set: zone z's list belongs to this state alone
    s.where = self.where[:]
    s.seen = self.seen[:]
    s.ctr = self.ctr[:]
    s.at = self.at[:]
    s.stack = [[c, pc, loc.copy(), h] for c, pc, loc, h in self.stack]
    s.pending = self.pending
    s.rng = self.rng.copy()
    s.seed = self.seed
    s.current = self.current
    s.turn = self.turn
    s.kinds = self.kinds
    s.over = self.over
    s.result = self.result
    s.phase = self.phase
    s.log = self.log
    s.history = self.history
    s.names_pending = self.names_pending
    s.record = self.record
    self._cow = s._cow = True
    s._opts = self._opts
    return s
