"""The game contract: every hook a game's rules may define — the pluggy hook specifications of
:class:`~cardforge.games.specs.GameHooks` (public as :mod:`cardforge.api`) — and the check that
a rules module keeps to it.

A game's rules are a plain module (or package) of functions and values named after the hooks;
each is optional, and a function needs no marker (``@hookimpl`` is allowed): like pytest's
``pytest_*`` functions, :class:`GamePlugins` takes a function named as a spec for its
implementation. The check runs when the game loads, before pluggy registers the module (whose
``_verify_hook`` then agrees): a hook whose parameters are not the spec's (cardforge calls hooks
with keyword arguments), a value of the wrong type, or a public function or class of the game's
own that is not a hook (``def scroe``) is a located error with the closest hook name — never a
silent fall-back to the data-only behaviour. Hooks are then called through pluggy
(:meth:`Hooks.call`), by keyword, so a spec can grow a parameter without breaking a game.

Where hooks are read:

- the rules module (``rules:`` in game.yaml, or the ``cardforge.games`` entry point's module):
  every hook;
- ``printables.py`` beside a rules *package*, when it has one: the printables hooks
  (``boards``, ``aids``, ``blocks``, ``SETUP_LABELS``), then read from there only. It is checked
  from its source when the game loads (importing it costs ~13 ms a command that prints nothing
  does not need) and again, whole, when it is imported to print.

What counts as the game's own: a function or class whose ``__module__`` is the rules module or
one of its package's modules. Names starting with ``_``, UPPER_CASE constants, modules, and
what is imported from elsewhere (``Any``, ``GameData``…) are not hooks and are left alone.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from pluggy import HookimplOpts, HookspecOpts, PluginManager, PluginValidationError

from cardforge.errors import DataError
from cardforge.games.specs import PROJECT, GameHooks
from cardforge.problems import Problem

#: the specs' class under its earlier name (every hook, in order)
GameRules = GameHooks


#: the hooks read from ``printables.py`` when a rules package has one
PRINTABLES = frozenset({"boards", "aids", "blocks", "SETUP_LABELS"})
#: the attribute under which :func:`lazy_hooks` marks its ``__getattr__`` with its table
LAZY = "cardforge_lazy_hooks"
#: held while a lazy hook loads or the plug-in manager is made (the web server's threads)
_LOADING = threading.RLock()


class HookSpec:
    """One member of :class:`GameHooks` (a plain class: a dataclass costs ~0.5 ms to define, on
    the start-up of every command)."""

    __slots__ = ("name", "params", "required", "annotation", "doc")

    def __init__(self, name: str, params: tuple[str, ...] | None, annotation: str, doc: str,
                 required: tuple[str, ...] | None = None):
        self.name = name
        self.params = params  # a function's parameters, the keywords it is called with; None: a value
        #: the parameters an implementation must take (a spec's parameter with a default was
        #: added later: optional, so an implementation written before it keeps working)
        self.required = required if required is not None else params
        self.annotation = annotation  # "(players: int, …) -> dict[str, Any]" or the value's type
        self.doc = doc

    def __repr__(self) -> str:
        return f"<hook {self.call}>"

    @property
    def is_function(self) -> bool:
        return self.params is not None

    @property
    def printables(self) -> bool:
        return self.name in PRINTABLES

    @property
    def call(self) -> str:
        """``score(data, state)`` — how cardforge calls it (or the bare name of a value)."""
        return f"{self.name}({', '.join(self.params)})" if self.params is not None else self.name


def _specs() -> dict[str, HookSpec]:
    out: dict[str, HookSpec] = {}
    for name, member in GameHooks.__dict__.items():
        if isinstance(member, property) and member.fget is not None:
            ret = inspect.signature(member.fget).return_annotation
            out[name] = HookSpec(name, None, str(ret), inspect.getdoc(member) or "")
        elif inspect.isfunction(member) and not name.startswith("_"):
            assert hasattr(member, PROJECT + "_spec"), f"GameHooks.{name} is not marked @hookspec"
            sig = inspect.signature(member)
            params = tuple(p for p in sig.parameters if p != "self")
            required = tuple(p for p in params if sig.parameters[p].default is inspect.Parameter.empty)
            shown = ", ".join(f"{p}: {sig.parameters[p].annotation}" for p in params)
            out[name] = HookSpec(name, params, f"({shown}) -> {sig.return_annotation}", inspect.getdoc(member) or "",
                                 required)
    return out


#: every hook, in the protocol's order
HOOKS: dict[str, HookSpec] = _specs()


def hooks_table() -> str:
    """The Markdown table of the hooks (DEVELOPING.md holds it; a test keeps them equal)."""
    rows = ["| hook | signature | what |", "|---|---|---|"]
    for spec in HOOKS.values():
        sig = spec.annotation if spec.is_function else f"a value: `{spec.annotation}`"
        if spec.is_function:
            sig = f"`{sig}`"
        where = " (in `printables.py` beside a rules package)" if spec.printables else ""
        rows.append(f"| `{spec.name}` | {sig.replace('|', chr(92) + '|')} | {spec.doc}{where} |")
    return "\n".join(rows) + "\n"


# --- pluggy: the specs, and a game's rules registered against them -------------------------

#: the names of the function hooks (pluggy's specs; the others are values)
_FUNCTIONS = frozenset(name for name, spec in HOOKS.items() if spec.is_function)
#: how a function named as a spec is taken, unmarked (pluggy's defaults)
_PLAIN: HookimplOpts = {"wrapper": False, "hookwrapper": False, "optionalhook": False, "tryfirst": False,
                        "trylast": False, "specname": None}


class GamePlugins(PluginManager):
    """pluggy's plug-in manager for one game's rules: the specs of :class:`GameHooks`, and —
    as pytest takes its ``pytest_*`` functions — a function named as a spec is an
    implementation whether or not it is marked ``@hookimpl``."""

    def __init__(self) -> None:
        super().__init__(PROJECT)
        self.add_hookspecs(GameHooks)

    def parse_hookspec_opts(self, module_or_class: Any, name: str) -> HookspecOpts | None:
        # pluggy looks up every name of the class statically (~50 of a Protocol's own): the
        # specs alone make a manager in ~0.45 ms instead of ~1.0 ms, once a game load
        return super().parse_hookspec_opts(module_or_class, name) if name in _FUNCTIONS else None

    def parse_hookimpl_opts(self, plugin: object, name: str) -> HookimplOpts | None:
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is None and name in _FUNCTIONS:
            value = getattr(plugin, name, None)
            if callable(value) and not inspect.isclass(value):
                return dict(_PLAIN)  # type: ignore[return-value]  # a copy: pluggy keeps it
        return opts


class Hooks:
    """A game's hooks, checked: name → what its rules define (only what they define), the hooks
    they load lazily (:func:`lazy_hooks`: checked, as the rest, when first used, and by
    :meth:`load_all`), and the plug-in manager that calls them.

    The manager is made, and the rules registered with it, when a hook is first called: a
    command that calls none (``build --only decks`` from the data cache) never pays for it.
    The contract's own check ran when the game loaded; pluggy's verification, which agrees
    with it, runs then (``cardforge check`` runs it at once, with :meth:`load_all`)."""

    def __init__(self, owner: str = "") -> None:
        self.owner = owner  # the game id, for the messages
        self.found: dict[str, Any] = {}
        #: hooks a rules package loads on first use: name → (module, attribute)
        self.lazy: dict[str, tuple[str, str]] = {}
        #: ``printables.py`` beside a rules package: checked from its source, imported on first use
        self.printables_name: str | None = None
        self.printables_file: Path | None = None
        self._printables: dict[str, Any] | None = None
        self._plugins: GamePlugins | None = None
        #: the checked rules, registered with pluggy when the manager is made: (rules, file, item)
        self._pending: tuple[object, str | None, str | None] | None = None
        #: lazy function hooks loaded so far, each registered with pluggy as its own plug-in:
        #: name → (the plug-in, its name, its file)
        self._loaded: dict[str, tuple[SimpleNamespace, str, str | None]] = {}

    def get(self, name: str) -> Any:
        """A rules hook as the rules define it (None when they leave it out); a lazy hook is
        loaded and checked now (DataError, located, when it breaks the contract)."""
        if name in self.lazy:
            with _LOADING:  # one thread loads it (a web server's requests may ask at once)
                problems = self._load(name) if name in self.lazy else []
            if problems:
                raise DataError(f"the rules of {self.owner} break the game contract", problems)
        return self.found.get(name)

    def defines(self, name: str) -> bool:
        """Whether the rules define hook ``name``, loaded or not (nothing is imported)."""
        return name in self.found or name in self.lazy

    def call(self, name: str, **kwargs: Any) -> Any:
        """Call function hook ``name`` through pluggy, by keyword (``call("score", data=…,
        state=…)``); its result (None when no implementation returns one)."""
        self.get(name)
        if self._pending is None and self._plugins is None:
            return None
        return getattr(self._manager().hook, name)(**kwargs)

    def load_all(self) -> list[Problem]:
        """Load every lazy hook and register the rules with pluggy: every problem the contract
        and pluggy find (what ``cardforge check`` reports; nothing is left to find later)."""
        problems: list[Problem] = []
        with _LOADING:
            for name in list(self.lazy):
                problems += self._load(name)
        if problems:
            return problems
        try:
            self._manager()
        except DataError as exc:
            return list(exc.problems)
        return []

    def _load(self, name: str) -> list[Problem]:
        """Import lazy hook ``name`` and check it as a hook defined in the module would be."""
        module_name, attr = self.lazy[name]  # left there until it loads: a broken hook stays broken
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # a broken module says where, never a traceback
            file = getattr(exc, "filename", None) or _module_file(module_name)
            return [Problem(f"'{name}' cannot be loaded from {module_name}: {type(exc).__name__}: {exc}",
                            file=_display(file), line=_error_line(exc, file))]
        file = getattr(module, "__file__", None)
        if not hasattr(module, attr):
            return [Problem(f"'{name}' is loaded from {module_name}, which defines no '{attr}'", file=_display(file))]
        value = getattr(module, attr)
        why = _wrong_shape(HOOKS[name], value)
        if why:
            return [Problem(why, file=_display(file), line=_line_of(file, attr))]
        if HOOKS[name].is_function:
            plugin = (SimpleNamespace(**{name: value}), f"{module_name}:{name}", file)
            problems = self._register(self._plugins, *plugin) if self._plugins is not None else []
            if problems:
                return problems
            self._loaded[name] = plugin
        self.found[name] = value
        del self.lazy[name]
        return []

    def _manager(self) -> GamePlugins:
        """The plug-in manager, made on first use with the checked rules (and the lazy hooks
        loaded so far) registered; DataError with what pluggy refuses."""
        with _LOADING:
            return self._plugins if self._plugins is not None else self._make_manager()

    def _make_manager(self) -> GamePlugins:
        plugins = GamePlugins()
        problems: list[Problem] = []
        if self._pending is not None:
            rules, file, item = self._pending
            problems += self._register(plugins, rules, None, file, item)
            for plugin, name, where in self._loaded.values():
                problems += self._register(plugins, plugin, name, where)
        if problems:
            raise DataError(f"the rules of {self.owner} break the game contract", problems)
        self._plugins = plugins
        return plugins

    @staticmethod
    def _register(plugins: GamePlugins, plugin: object, name: str | None, file: str | None,
                  item: str | None = None) -> list[Problem]:
        """Register checked rules (a module or an object) with pluggy; what pluggy's own
        verification refuses, as problems (the contract's check refuses it first)."""
        try:
            plugins.register(plugin, name)
            plugins.check_pending()
        except PluginValidationError as exc:
            return [Problem(" ".join(str(exc).split()), file=_display(file), item=item)]
        return []

    def printables(self) -> dict[str, Any]:
        """The printables hooks: from ``printables.py`` (imported and checked now), else from the
        rules module. A function hook is its pluggy caller, called by keyword (``data=``)."""
        if self._printables is None:
            for name in PRINTABLES & set(self.lazy):  # a rules module's lazy printables hooks
                self.get(name)
            if self.printables_name is None:
                found = {k: v for k, v in self.found.items() if k in PRINTABLES}
            else:
                found = self._printables_module()
            plugins = self._manager() if any(HOOKS[k].is_function for k in found) else None
            self._printables = {k: getattr(plugins.hook, k) if HOOKS[k].is_function and plugins is not None else v
                                for k, v in found.items()}
        return self._printables

    def _printables_module(self) -> dict[str, Any]:
        """``printables.py``'s hooks, imported, checked whole and registered with pluggy."""
        assert self.printables_name is not None
        try:
            module = importlib.import_module(self.printables_name)
        except Exception as exc:  # a broken printables.py says where, never a traceback
            raise DataError(f"the printables of {self.printables_name} cannot be loaded",
                            [Problem(f"{type(exc).__name__}: {exc}", file=_display(self.printables_file),
                                     line=getattr(exc, "lineno", None))]) from exc
        found: dict[str, Any] = {}
        problems = _check_module(module, found, allowed=PRINTABLES, printables_file=None, whole_package=False)
        problems = problems or self._register(self._manager(), module, None, getattr(module, "__file__", None))
        if problems:
            raise DataError(f"the printables of {module.__name__} break the game contract", problems)
        return found

    def printables_namespace(self) -> SimpleNamespace:
        """The printables hooks as attributes (None where left out)."""
        found = self.printables()
        return SimpleNamespace(**{name: found.get(name) for name in sorted(PRINTABLES)})


def _error_line(exc: BaseException, file: str | None) -> int | None:
    """The line of ``file`` where ``exc`` was raised (a syntax error's own line), or None."""
    if isinstance(exc, SyntaxError):
        return exc.lineno
    import traceback

    lines = [n for frame, n in traceback.walk_tb(exc.__traceback__) if file and frame.f_code.co_filename == file]
    return lines[-1] if lines else None


def _module_file(name: str) -> str | None:
    """The file module ``name`` would be imported from (for a message), without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None and spec.has_location else None


def check_rules(rules: object | None, game_id: str) -> Hooks:
    """The hooks of ``rules`` (a module, a package, or any object with hook attributes),
    checked against :class:`GameHooks` (registered with pluggy when a hook is first called:
    :class:`Hooks`); DataError listing every problem, each located. A rules package's lazy
    hooks (:func:`lazy_hooks`) are checked by name here and whole when first used."""
    hooks = Hooks(game_id)
    if rules is None:
        return hooks
    printables_file = _printables_file(rules)
    allowed = frozenset(HOOKS) - (PRINTABLES if printables_file is not None else frozenset())
    if isinstance(rules, ModuleType):
        problems = _check_module(rules, hooks.found, allowed=allowed, printables_file=printables_file)
        problems += _check_lazy(rules, hooks, allowed, printables_file)
    else:
        problems = _check_object(rules, hooks.found)
    if printables_file is not None:
        assert isinstance(rules, ModuleType)
        hooks.printables_name = f"{rules.__name__}.printables"
        hooks.printables_file = printables_file
        problems += _check_source(printables_file)
    if problems:
        raise DataError(f"the rules of {game_id} break the game contract", problems)
    hooks._pending = (rules, getattr(rules, "__file__", None),
                      None if isinstance(rules, ModuleType) else f"rules {type(rules).__name__}")
    return hooks


def lazy_hooks(package: str, /, **hooks: str) -> Callable[[str], Any]:
    """A rules package's module ``__getattr__`` (PEP 562) that imports hooks from its
    submodules on first use: ``__getattr__ = lazy_hooks(__name__, score="scoring",
    score_model="scoring:FinalState")`` (hook = ``"submodule"``, the attribute named as the
    hook, or ``"submodule:attribute"``). A command that never uses them never imports them.

    The contract checks each name when the game loads (a hook, allowed here, its submodule
    there, not defined twice), and the hook itself, as a hook defined in the package would
    be, when it is first used; ``cardforge check`` loads them all, so it reports a broken one."""
    table = {hook: (f"{package}.{where.partition(':')[0].lstrip('.')}", where.partition(":")[2] or hook)
             for hook, where in hooks.items()}

    def __getattr__(name: str) -> Any:  # noqa: N807 (PEP 562's name)
        if name in table:
            module, attr = table[name]
            return getattr(importlib.import_module(module), attr)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    setattr(__getattr__, LAZY, table)
    return __getattr__



def _printables_file(rules: object) -> Path | None:
    """``printables.py`` of a rules package (found without importing it), or None."""
    paths = getattr(rules, "__path__", None)
    if not isinstance(rules, ModuleType) or not paths:
        return None
    for folder in paths:
        candidate = Path(folder) / "printables.py"
        if candidate.is_file():
            return candidate
    return None


def _display(path: str | Path | None) -> str | None:
    if not path:
        return None
    from cardforge.resources import display_path

    return display_path(Path(path))


_UPPER = re.compile(r"^[A-Z][A-Z0-9_]*$")


def _check_module(module: ModuleType, found: dict[str, Any], *, allowed: frozenset[str],
                  printables_file: Path | None, whole_package: bool = True) -> list[Problem]:
    """Check a module's public names; record its hooks in ``found``. The game's own functions
    and classes are those defined in the module or, with ``whole_package`` (the rules module,
    whose public names are the contract), in any module of its package: a package's
    ``__init__.py`` re-exports its hooks from them, and a typo there is a hook lost."""
    file = getattr(module, "__file__", None)
    declared = set(getattr(module, "__all__", ()) or ())
    problems: list[Problem] = []

    def problem(name: str, message: str) -> None:
        problems.append(Problem(message, file=_display(file), line=_line_of(file, name)))

    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        hook = _specname(value) or name
        if hook != name:  # @hookimpl(specname="score") def my_score(...)
            why = _renamed_problem(name, hook, allowed, found)
            if why:
                problem(name, why)
                continue
        if hook in HOOKS:
            if hook not in allowed:
                problem(name, _misplaced(hook, printables_file))
                continue
            why = _wrong_shape(HOOKS[hook], value)
            if why is None and hook in found and found[hook] is not value:
                why = f"'{name}' implements '{hook}', which this module implements already"
            if why:
                problem(name, why)
            else:
                found[hook] = value
            continue
        if isinstance(value, ModuleType) or _UPPER.match(name):
            continue
        if type(value).__module__ == "__future__":  # from __future__ import annotations
            continue
        origin = getattr(value, "__module__", None) or ""
        own = (inspect.isfunction(value) or (inspect.isclass(value) and not _is_type_name(name))) and \
            (origin == module.__name__ or (whole_package and origin.startswith(module.__name__ + ".")))
        if own or name in declared or (not callable(value) and _closest(name, allowed) is not None):
            problem(name, _not_a_hook(name, allowed))
    return problems


def _check_lazy(module: ModuleType, hooks: Hooks, allowed: frozenset[str], printables_file: Path | None
                ) -> list[Problem]:
    """The lazy hooks of a rules package (:func:`lazy_hooks`), checked by name without importing
    them: each a hook allowed here, not defined in the package too, its submodule there.
    Recorded in ``hooks.lazy``; each is checked whole when first used (:meth:`Hooks.get`)."""
    table = getattr(vars(module).get("__getattr__"), LAZY, None)
    if not isinstance(table, dict):
        return []
    file = getattr(module, "__file__", None)
    problems: list[Problem] = []
    for name, (target, attr) in table.items():
        why = None
        if name not in HOOKS:
            why = _not_a_hook(name, allowed)
        elif name not in allowed:
            why = _misplaced(name, printables_file)
        elif name in hooks.found:
            why = f"'{name}' is defined here and loaded lazily from {target} too"
        elif target.rpartition(".")[2] == name:  # importing it binds the module to that name
            why = f"'{name}' cannot be loaded lazily from a module of the same name ({target})"
        elif _module_file(target) is None:
            why = f"'{name}' is loaded lazily from {target}, which does not exist"
        if why:
            problems.append(Problem(why, file=_display(file), line=_line_of(file, name)))
        else:
            hooks.lazy[name] = (target, attr)
    return problems


def _specname(value: Any) -> str | None:
    """The hook a function marked ``@hookimpl(specname=…)`` implements under another name."""
    opts = getattr(value, PROJECT + "_impl", None)
    name = opts.get("specname") if isinstance(opts, dict) else None
    return name if isinstance(name, str) else None


def _renamed_problem(name: str, hook: str, allowed: frozenset[str], found: dict[str, Any]) -> str | None:
    if hook not in HOOKS:
        close = _closest(hook, allowed)
        hint = f"; did you mean '{close}'?" if close is not None else ""
        return f"'{name}' implements '{hook}' (@hookimpl(specname=...)), which is not a hook{hint}"
    if hook in found:
        return f"'{name}' implements '{hook}', which this module implements already"
    return None


def _is_type_name(name: str) -> bool:
    """``FinalState``, ``Spell``: a class named as a type is a model of the game's (its cards, its
    final state), never a misspelled hook — hooks are snake_case or UPPER_CASE."""
    return name[:1].isupper() and not _UPPER.match(name)


def _check_object(rules: object, found: dict[str, Any]) -> list[Problem]:
    """A namespace made in code (``Game.define``): every public attribute is a hook."""
    problems = []
    for name in sorted(n for n in dir(rules) if not n.startswith("_")):
        value = getattr(rules, name)
        if name not in HOOKS:
            problems.append(Problem(_not_a_hook(name, frozenset(HOOKS)), item=f"rules {type(rules).__name__}"))
            continue
        why = _wrong_shape(HOOKS[name], value)
        if why:
            problems.append(Problem(why, item=f"rules {type(rules).__name__}"))
        else:
            found[name] = value
    return problems


def _closest(name: str, allowed: frozenset[str]) -> str | None:
    import difflib

    close = difflib.get_close_matches(name, sorted(allowed), n=1, cutoff=0.75)
    return close[0] if close else None


def _not_a_hook(name: str, allowed: frozenset[str]) -> str:
    close = _closest(name, allowed) or _closest(name.lower(), allowed)
    if close is not None:
        return f"'{name}' is not a hook; did you mean '{close}'?"
    if allowed <= PRINTABLES:
        what = f"printables.py's hooks are {', '.join(h for h in HOOKS if h in allowed)}"
    else:
        what = "the hooks: GameHooks in cardforge.api, docs/game-api.md"
    return f"'{name}' is not a hook ({what}); a helper is private ('_{name}') or lives in another module"


def _misplaced(name: str, printables_file: Path | None) -> str:
    if name in PRINTABLES:
        return (f"'{name}' is a printables hook: this rules package has a printables.py "
                f"({_display(printables_file)}), where cardforge reads it")
    return f"'{name}' is a rules hook: cardforge reads it from the rules module, not printables.py"


def _wrong_shape(spec: HookSpec, value: Any) -> str | None:
    """Why ``value`` cannot be hook ``spec``, or None."""
    if spec.params is not None:
        if inspect.isclass(value) or not callable(value):
            return f"'{spec.name}' must be a function {spec.call}, got {_kind(value)}"
        if inspect.isfunction(value) and not hasattr(value, "__wrapped__"):
            # the common case, told from the code object (a signature costs ~30 µs)
            code = value.__code__
            positional = code.co_varnames[:code.co_argcount]
            n_defaults = len(value.__defaults__ or ())
            kw_only = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
            kwdefaults = value.__kwdefaults__ or {}
            return _params_problem(spec, positional[:len(positional) - n_defaults],
                                   positional[len(positional) - n_defaults:],
                                   [k for k in kw_only if k not in kwdefaults])
        try:
            sig = inspect.signature(value)
        except (TypeError, ValueError):  # a builtin without a signature: it is called and will tell
            return None
        kinds = inspect.Parameter
        params = list(sig.parameters.values())
        ordered = [p for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
        return _params_problem(spec, [p.name for p in ordered if p.default is kinds.empty],
                               [p.name for p in ordered if p.default is not kinds.empty],
                               [p.name for p in params if p.kind is kinds.KEYWORD_ONLY and p.default is kinds.empty],
                               shown=_shown(sig))
    check = _VALUE_CHECKS[spec.name]
    why = check(value)
    return f"'{spec.name}' must be {why}, got {_kind(value)}" if why else None


def _params_problem(spec: HookSpec, required: Sequence[str], defaulted: Sequence[str], kw_required: Sequence[str],
                    shown: str | None = None) -> str | None:
    """Why a function with these parameters cannot implement ``spec``, or None. pluggy calls an
    implementation with the spec's arguments its parameters name (a parameter with a default
    is never given one); so its parameters without a default are named as the spec's, it
    names every parameter the spec requires, and it has no keyword-only one without a default.
    ``*args`` and ``**kwargs`` are left alone."""
    assert spec.params is not None and spec.required is not None
    missing = [p for p in spec.required if p not in required]
    unknown = [p for p in required if p not in spec.params] + list(kw_required)
    if not missing and not unknown:
        return None
    if shown is None:
        shown = "(" + ", ".join([*required, *defaulted, *kw_required]) + ")"
    why = []
    if unknown:
        why.append(f"{_listed(unknown)} {'is' if len(unknown) == 1 else 'are'} not among its arguments")
    if missing:
        given = [p for p in missing if p in defaulted]
        lacking = [p for p in missing if p not in defaulted]
        if lacking:
            why.append(f"no parameter {_listed(lacking)}")
        if given:
            why.append(f"{_listed(given)} with a default is never given")
    return (f"'{spec.name}' takes {shown}; the hook is called as {spec.call} "
            f"(by keyword: {'; '.join(why)})")


def _listed(names: Sequence[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _shown(sig: inspect.Signature) -> str:
    return "(" + ", ".join(str(p).split(":")[0].split("=")[0].strip() for p in sig.parameters.values()) + ")"


def _kind(value: Any) -> str:
    if inspect.isclass(value):
        return f"the class {value.__name__}"
    if callable(value):
        return f"a function ({getattr(value, '__name__', type(value).__name__)})"
    return f"a {type(value).__name__}"


def _models(value: Any) -> str | None:
    from cardforge.data.models import CardBase

    if isinstance(value, Mapping) and all(isinstance(k, str) and inspect.isclass(v) and issubclass(v, CardBase)
                                          for k, v in value.items()):
        return None
    return "a mapping of kind → CardBase subclass"


def _sections(value: Any) -> str | None:
    from cardforge.data.loading import Section

    if isinstance(value, (tuple, list)) and all(isinstance(s, Section) for s in value):
        return None
    return "a tuple of Section"


def _model(value: Any) -> str | None:
    from pydantic import BaseModel

    return None if inspect.isclass(value) and issubclass(value, BaseModel) else "a pydantic model class"


def _labels(value: Any) -> str | None:
    if isinstance(value, Mapping) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        return None
    return "a mapping of setup number → label"


#: how each value hook is checked (a test keeps one per value of the protocol)
_VALUE_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "card_models": _models, "sections": _sections, "setup_model": _model, "score_model": _model,
    "SETUP_LABELS": _labels,
}


def _line_of(file: str | None, name: str) -> int | None:
    """The line where ``name`` is defined or imported in ``file`` (for the message only)."""
    if not file:
        return None
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    n = re.escape(name)
    patterns = [rf"^\s*(async\s+)?def\s+{n}\b", rf"^\s*class\s+{n}\b", rf"^{n}\s*[:=]",
                rf"\bimport\b.*\bas\s+{n}\b", rf"\bimport\b.*\b{n}\b", rf"^\s+{n}\b", rf"\b{n}\s*=(?!=)"]
    for pattern in patterns:
        for number, text in enumerate(lines, start=1):
            if re.search(pattern, text):
                return number
    return None


# --- printables.py, from its source ---------------------------------------------------------

_TOP_LEVEL = re.compile(r"^(?:(?:async\s+)?def|class)\s+(\w+)|^(\w+)\s*(?::[^=\n]*)?=(?!=)", re.MULTILINE)


def _check_source(path: Path) -> list[Problem]:
    """What can be told of a package's ``printables.py`` without importing it: its top-level
    functions and classes are printables hooks with the hooks' arity; no rules hook there.

    Parsing the whole file costs ~1.5 ms a game load; a scan of its top-level names costs
    ~50 µs: the file is parsed only when the scan sees a printables hook defined with ``def``
    (that function alone, for its arity) or anything else to refuse (all of it, to be exact)."""
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [Problem(f"cannot be read: {exc}", file=_display(path))]
    suspect = False
    for m in _TOP_LEVEL.finditer(source):
        name = m.group(1) or m.group(2)
        if name.startswith("_") or (_UPPER.match(name) and name not in HOOKS):
            continue
        if name in PRINTABLES and m.group(1) and m.group(0).lstrip().startswith(("def", "async")):
            chunk = _definition(source, m.start())
            try:
                fn = ast.parse(chunk).body[0] if chunk is not None else None
            except SyntaxError:
                fn = None
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and _arity_problem(HOOKS[name], fn.args) is None:
                continue
            suspect = True
        elif name in PRINTABLES and m.group(2):
            continue  # a hook bound to a value: checked when the module is imported
        elif m.group(1) and m.group(0).startswith("class") and _is_type_name(name):
            continue
        elif m.group(2) and name not in HOOKS and _closest(name, PRINTABLES) is None:
            continue
        else:
            suspect = True
        if suspect:
            break
    return _check_tree(path, source) if suspect else []


def _definition(source: str, start: int) -> str | None:
    """The header of the top-level ``def`` at ``start`` with an empty body (``def f(x): ...``),
    or None when brackets do not close (the whole file is parsed then)."""
    depth, i = 0, source.find("(", start)
    while 0 <= i < len(source):
        c = source[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ":" and depth == 0:
            return source[start:i + 1] + " ..."
        i += 1
    return None


def _check_tree(path: Path, source: str) -> list[Problem]:
    where = _display(path)
    try:
        tree = ast.parse(source, filename=str(path))
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        return [Problem(f"cannot be read: {type(exc).__name__}: {getattr(exc, 'msg', exc)}", file=where, line=line)]
    problems: list[Problem] = []
    for node in tree.body:
        names: list[tuple[str, ast.AST]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append((node.name, node))
        elif isinstance(node, ast.Assign):
            names += [(t.id, node) for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append((node.target.id, node))
        for name, item in names:
            if name.startswith("_") or _UPPER.match(name) and name not in HOOKS:
                continue
            line = getattr(item, "lineno", None)
            if name in HOOKS and name not in PRINTABLES:
                problems.append(Problem(_misplaced(name, None), file=where, line=line))
            elif name in PRINTABLES:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    why = _arity_problem(HOOKS[name], item.args)
                    if why:
                        problems.append(Problem(why, file=where, line=line))
                elif isinstance(item, ast.ClassDef):
                    problems.append(Problem(f"'{name}' must be a function {HOOKS[name].call}, got a class",
                                            file=where, line=line))
            elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    or (isinstance(item, ast.ClassDef) and not _is_type_name(name)) \
                    or _closest(name, PRINTABLES) is not None:
                problems.append(Problem(_not_a_hook(name, PRINTABLES), file=where, line=line))
    return problems


def _arity_problem(spec: HookSpec, args: ast.arguments) -> str | None:
    positional = [a.arg for a in args.posonlyargs + args.args]
    n_defaults = len(args.defaults)
    kw_required = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    shown = positional + ([f"*{args.vararg.arg}"] if args.vararg else []) + kw_required
    return _params_problem(spec, positional[:len(positional) - n_defaults], positional[len(positional) - n_defaults:],
                           kw_required, shown="(" + ", ".join(shown) + ")")
