"""ReportLab drawing. Importing this package first imports ReportLab without the user's
settings (:func:`isolate_reportlab`)."""

from __future__ import annotations

import os
import sys
import types


def isolate_reportlab() -> None:
    """Import ReportLab without the user's settings: the output must not depend on the home
    folder or the shell.

    At its first import ReportLab runs ``~/.reportlab_mods`` (or a ``reportlab_mods`` module
    anywhere on ``sys.path``) as Python, reads ``~/.reportlab_settings`` (or a
    ``reportlab_settings`` module) over its defaults, and lets ``RL_<setting>`` environment
    variables override them. Empty stand-ins for the two modules, present in ``sys.modules``
    while ``reportlab`` and ``reportlab.rl_config`` are imported, make both imports succeed
    with nothing in them (so neither home file is looked for), and the ``RL_`` variables are
    hidden for that moment; all is put back afterwards. Idempotent; a no-op once ReportLab
    has been imported."""
    if "reportlab.rl_config" in sys.modules:
        return
    stubs = {}
    for name in ("reportlab_mods", "reportlab_settings"):
        if name not in sys.modules:
            stubs[name] = sys.modules[name] = types.ModuleType(name)
    hidden = {k: os.environ.pop(k) for k in [k for k in os.environ if k.startswith("RL_")]}
    try:
        import reportlab  # noqa: F401
        import reportlab.rl_config  # noqa: F401
    finally:
        os.environ.update(hidden)
        for name, stub in stubs.items():
            if sys.modules.get(name) is stub:
                del sys.modules[name]


isolate_reportlab()
