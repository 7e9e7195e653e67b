"""The runtime: what compiled code calls and what it returns.

Pipeline position: below the compiler (`effects/`) and the engine (`engine/`), above only
`errors`. It owns the shapes both sides agree on: a code unit and its instructions'
source places, `SUSPEND`, jump targets (`vm.py`); options, decisions and the log entry of
an action (`options.py`); and the state-changing primitives compiled effects call
(`ops.py`). It imports nothing of the compiler or the engine: they import it.
"""
