"""YAML reading: safe_load only, duplicate keys reported, lines found for messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardforge.problems import Problem

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[misc,valid-type]
    """SafeLoader that records duplicate mapping keys instead of silently keeping the last."""

    def __init__(self, stream):
        super().__init__(stream)
        self.duplicates: list[tuple[int, str]] = []


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False):
    loader.flatten_mapping(node)
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hashable = key in seen
        except TypeError:
            continue
        if hashable:
            loader.duplicates.append((key_node.start_mark.line + 1, str(key)))
        else:
            seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


@dataclass
class YamlDoc:
    """A parsed YAML file that can tell the line of any value for error messages."""

    path: Path
    display: str
    text: str
    data: Any
    problems: list[Problem] = field(default_factory=list)
    _root: Any = None

    def line_of(self, loc: tuple) -> int | None:
        """1-based line of the node at ``loc`` (keys and list indexes), as deep as exists."""
        if self._root is None:
            try:
                self._root = yaml.compose(self.text, Loader=_Base)  # the C parser when there is one
            except yaml.YAMLError:
                return None
        node, line = self._root, None
        if node is not None:
            line = node.start_mark.line + 1
        for part in loc:
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == str(part):
                        line = k.start_mark.line + 1
                        node = v
                        break
                else:
                    return line
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
                if 0 <= part < len(node.value):
                    node = node.value[part]
                    line = node.start_mark.line + 1
                else:
                    return line
            else:
                return line
        return line


def read_yaml(path: Path, display: str | None = None) -> YamlDoc:
    """Parse ``path``. Syntax errors and duplicate keys become problems on the returned doc
    (``data`` is None after a syntax error); a missing file is a problem too."""
    from cardforge.resources import display_path

    display = display or display_path(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return YamlDoc(path, display, "", None, [Problem("file not found", file=display)])
    except (OSError, UnicodeDecodeError) as exc:
        return YamlDoc(path, display, "", None, [Problem(f"cannot read file: {exc}", file=display)])
    loader = _Loader(text)
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        what = getattr(exc, "problem", None) or str(exc)
        if "mapping values are not allowed" in what:
            what += (" (text containing ': ' — an icon token such as ':coin: ' — must be quoted, "
                     "e.g. name: \"2 :coin: par tour\", or written as a block with |)")
        return YamlDoc(
            path, display, text, None,
            [Problem(f"invalid YAML: {what}", file=display, line=mark.line + 1 if mark else None)],
        )
    except ValueError as exc:  # an integer of more digits than Python converts (issue 21)
        if "digits" not in str(exc):
            raise
        return YamlDoc(path, display, text, None, [Problem(
            "a number too long to read (more than 4,300 digits); no count in a game comes near it",
            file=display)])
    finally:
        loader.dispose()
    problems = [
        Problem(f"duplicate key '{key}' (YAML keeps only the last one)", file=display, line=line)
        for line, key in loader.duplicates
    ]
    return YamlDoc(path, display, text, data, problems)
