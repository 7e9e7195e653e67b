"""The program layer: a whole ruleset compiled (see core.py).

Pipeline position: above the compiler (effects/) and the runtime, below the engine.
"""

from .core import Program
from .defs import ActionDef, CounterDef, EndDef, ZoneDef

__all__ = ["ActionDef", "CounterDef", "EndDef", "Program", "ZoneDef"]
