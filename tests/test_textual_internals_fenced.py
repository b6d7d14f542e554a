"""Private Textual and Rich names are used in ``ka_tui/textual_compat`` only.

Found by reading the code (AST) and the classes (MRO), as the import
contract does for layers: outside the package no module may

- import a private Textual or Rich module (``textual._compositor``,
  ``textual.widgets._footer``) or a private name from one;
- read or write an underscore attribute that only Textual or Rich define
  (``app._driver``, ``style._color``), or call one through ``super()``;
- define, in a subclass of a Textual or Rich class, a method or attribute
  whose underscore name a Textual or Rich base already has (an override of
  ``_watch_value``, ``_on_resize``...), or use one through ``self``.

Our own underscore names are not the concern; the reading cannot tell a
Textual name from one of ours of the same spelling on an object it does not
know. ``KNOWN`` lists what is still outside, with the reason (none today).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import textwrap
from collections.abc import Iterator
from pathlib import Path

import rich
import textual

ROOT = Path(__file__).resolve().parents[1]
FENCE = ROOT / "ka_tui" / "textual_compat"
LIBS = ("textual", "rich")
# set by Textual's metaclass on every DOMNode subclass: not an override
MANAGED = {"_computes", "_css_type_name", "_css_type_names", "_decorated_handlers",
           "_inherit_bindings", "_inherit_component_classes", "_inherit_css",
           "_merged_bindings", "_reactives"}
KNOWN: set[str] = set()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@functools.cache
def _library_names() -> frozenset[str]:
    """Every underscore name Textual and Rich define or use as an attribute."""
    names: set[str] = set()
    for lib in (textual, rich):
        for path in Path(lib.__file__).parent.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute):
                    names.add(node.attr)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(node.name)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
    return frozenset(n for n in names if _private(n))


def _files(*folders: str) -> list[Path]:
    found = [p for folder in folders for p in sorted((ROOT / folder).rglob("*.py"))]
    return [p for p in found if FENCE not in p.parents]


@functools.cache
def _our_names() -> frozenset[str]:
    """Underscore names our code outside the fence defines or assigns."""
    names: set[str] = set()
    for path in _files("ka_tui", "benchmarks", "tests"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return frozenset(n for n in names if _private(n))


def source_sites(path: Path, ours: frozenset[str] = frozenset()) -> Iterator[str]:
    """Private Textual/Rich names ``path`` uses, by its text (one line each)."""
    where = path.relative_to(ROOT)
    library = _library_names()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    other_modules = {alias.asname or alias.name.split(".")[0]
                     for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names if alias.name.split(".")[0] not in LIBS}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            names = [a.name for a in node.names]
            if parts[0] in LIBS and (any(map(_private, parts)) or any(map(_private, names))):
                yield f"{where}:{node.lineno}: from {node.module} import {', '.join(names)}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] in LIBS and any(map(_private, parts)):
                    yield f"{where}:{node.lineno}: import {alias.name}"
        elif (isinstance(node, ast.Attribute) and _private(node.attr)
              and node.attr in library and node.attr not in ours
              and not (isinstance(node.value, ast.Name) and node.value.id in other_modules)):
            yield f"{where}:{node.lineno}: .{node.attr}"


def _library_class(cls: type) -> bool:
    return cls.__module__.split(".")[0] in LIBS


@functools.cache
def _names_of_library_class(cls: type) -> frozenset[str]:
    names = {n for n in vars(cls) if _private(n)}
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return frozenset(names)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "self" and _private(node.attr)):
            names.add(node.attr)
    return frozenset(names)


def class_sites(module_name: str) -> Iterator[str]:
    """Overrides and ``self`` uses of private Textual/Rich names by the
    classes ``module_name`` defines."""
    module = importlib.import_module(module_name)
    where = Path(inspect.getfile(module)).relative_to(ROOT)
    for cls in vars(module).values():
        if not inspect.isclass(cls) or cls.__module__ != module_name:
            continue
        bases = [b for b in cls.__mro__[1:] if _library_class(b)]
        if not bases:
            continue
        theirs: dict[str, str] = {}
        for base in bases:
            for name in _names_of_library_class(base):
                theirs.setdefault(name, base.__name__)
        ours = {n for c in cls.__mro__ if not _library_class(c) and c is not object
                and FENCE not in Path(inspect.getfile(c)).parents for n in vars(c)}
        for name in sorted(set(vars(cls)) & set(theirs) - MANAGED):
            yield f"{where}: {cls.__name__} defines {name} ({theirs[name]})"
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "self" and node.attr in theirs
                    and node.attr not in ours and node.attr not in MANAGED):
                yield f"{where}: {cls.__name__} uses self.{node.attr} ({theirs[node.attr]})"


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_no_private_textual_or_rich_name_outside_the_fence() -> None:
    ours = _our_names()
    found: set[str] = set()
    for path in _files("ka_tui", "benchmarks", "tests"):
        found |= set(source_sites(path, ours))
        if path.parts[len(ROOT.parts)] != "tests" and path.name != "__main__.py":
            found |= set(class_sites(_module_name(path)))
    assert sorted(found - KNOWN) == []
    assert sorted(KNOWN - found) == [], "a known site is gone: take it off KNOWN"


def test_the_fence_finds_what_it_is_for() -> None:
    """The same reading finds the private names the package itself uses."""
    sites = [s for p in sorted(FENCE.rglob("*.py")) for s in source_sites(p)]
    text = "\n".join(sites)
    for needle in ("from textual._compositor import", "._display", "._bindings_ready",
                   "._thread_id", "._compositor", "._attributes"):
        assert needle in text, needle
    assert any("forms.py" in s and "_watch_value" in s for s in sites)
