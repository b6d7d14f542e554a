"""Screens never touch the store on the UI thread: checked by the suite, by
reading the code (``ast``), in the manner of the import contract.

The rule, for every module under ``ka_tui/screens/`` (but
``store_work.py``, the helper itself, and the packages in
``BEING_REWRITTEN``) and for the ``action_*`` methods of ``ka_tui/app.py``
and ``ka_tui/player_app.py`` (what a key or a palette entry does there):
a *store call* may only be made in *job code*.

A **store call** is a call of

1. an attribute ``campaign_db`` (``door(self).campaign_db()``: the open
   campaign, which may run migrations);
2. a function defined at the top of a module of ``ka_tui/store/``, by the
   name it was imported as (``from ka_tui.store.campaign import house_rules``)
   or through its module (``from ka_tui.store import missions`` ...
   ``missions.link(...)``), unless listed in ``PURE_STORE_HELPERS`` (they
   touch no file: formatting, parsing, arithmetic on paths);
3. a function of a screens module that *takes the campaign*: its first
   parameter (after ``self``) is named ``db`` or annotated ``CampaignDB``
   (``screens/air/data.py``'s, ``screens/campaign/data.py``'s), by name, as
   ``module.f`` or as ``self.f``;
4. a method of a value named ``db`` or ``_db`` (a ``CampaignDB``).

**Job code** is the body (nested functions and lambdas included) of

- a lambda or function given as the job (second argument, or ``job=``) of
  ``store_work`` or ``file_work`` (``screens/store_work.py``); a function
  given by name is looked up as a function of the module or a method
  (``self.name``);
- a form's save: a ``write`` method of a class built on ``FormScreen``, or a
  lambda or function given as ``write=`` (``widgets/form_fields.FormScreen``
  runs it in its save worker);
- a function that takes the campaign (as in 3.: only a job has one to give);
- a function of a checked module referenced only from job code (by its name,
  or as ``self.name``, anywhere in the checked modules) and at least once.

A hand-rolled ``@work(thread=True)`` or ``run_worker(..., thread=True)``
worker is not job code: a store call in it fails the test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ka_tui"
SCREENS = PACKAGE / "screens"
STORE = PACKAGE / "store"

# Screens being moved onto store_work on other branches right now (paths
# under ka_tui/screens/); each leaves this list when its branch is merged.
# Every screen is on store_work now: the list is empty, and nothing is added.
BEING_REWRITTEN: tuple[str, ...] = ()

# Store functions a screen may call on the UI thread: they read no file.
PURE_STORE_HELPERS = frozenset({
    "ka_tui.store.load_failure.load_failure",  # the message; reads only given a source
    "ka_tui.store.paths.file_for",           # a file name for a campaign's name
    "ka_tui.store.missions.members_text",    # a mission's people as the form shows them
    "ka_tui.store.rows_to_rules.from_profile",  # a profile as row columns
    "ka_tui.store.profiles_io.free_name",    # a name not in a given list
    "ka_tui.store.profiles_io.default_export_path",  # a path in the data folder
    "ka_tui.store.roster_reads.warm_up",     # imports the write half, reads nothing
    "ka_tui.store.table_seats.link_url",     # a player's link from an address and a token
    # a form's field checks, on the values typed
    "ka_tui.store.field_checks.character_errors",
    "ka_tui.store.field_checks.skill_errors",
    "ka_tui.store.field_checks.weapon_errors",
    "ka_tui.store.field_checks.seats_text",
    "ka_tui.store.field_checks.crew_error",
})

JOB_RUNNERS = ("store_work", "file_work")
APP_MODULES = (PACKAGE / "app.py", PACKAGE / "player_app.py")


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _top_functions(tree: ast.Module) -> set[str]:
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _store_functions() -> dict[str, set[str]]:
    """Store module -> its top-level functions."""
    return {_module_name(p): _top_functions(ast.parse(p.read_text(encoding="utf-8")))
            for p in STORE.rglob("*.py")}


FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def takes_the_campaign(fn: FunctionNode) -> bool:
    args = [*fn.args.posonlyargs, *fn.args.args]
    if args and args[0].arg in ("self", "cls"):
        args = args[1:]
    if not args:
        return False
    first = args[0]
    note = ast.unparse(first.annotation) if first.annotation is not None else ""
    return first.arg == "db" or note.strip("'\"") in ("CampaignDB", "CampaignDB | None")


@dataclass
class Module:
    name: str
    label: str
    tree: ast.Module
    app_actions_only: bool = False
    parents: dict[ast.AST, ast.AST] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)   # alias -> module
    names: dict[str, str] = field(default_factory=dict)     # alias -> module.function
    jobs: set[ast.AST] = field(default_factory=set)

    def __post_init__(self) -> None:
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    local = alias.asname or alias.name
                    whole = f"{node.module}.{alias.name}"
                    if node.module.startswith("ka_tui."):
                        self.modules[local] = whole
                        self.names[local] = whole
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("ka_tui.") and alias.asname:
                        self.modules[alias.asname] = alias.name

    def functions(self) -> Iterator[FunctionNode]:
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield node

    def named(self, name: str) -> list[FunctionNode]:
        return [f for f in self.functions()
                if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == name]

    def in_jobs(self, node: ast.AST) -> bool:
        while node in self.parents:
            if node in self.jobs:
                return True
            node = self.parents[node]
        return node in self.jobs

    def checked(self, node: ast.AST) -> bool:
        """Whether a store call here counts (app modules: inside ``action_*``)."""
        if not self.app_actions_only:
            return True
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and node.name.startswith("action_"):
                return True
        return False


def _given(module: Module, arg: ast.expr) -> list[ast.AST]:
    """The function nodes an argument names (a lambda, a name, ``self.name``)."""
    if isinstance(arg, ast.Lambda):
        return [arg]
    if isinstance(arg, ast.Name):
        return list(module.named(arg.id))
    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) \
            and arg.value.id == "self":
        return list(module.named(arg.attr))
    return []


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _form_classes(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for c in classes:
            bases = {ast.unparse(b).split("[")[0].split(".")[-1] for b in c.bases}
            if c.name not in found and any(b.endswith("FormScreen") or b in found
                                           for b in bases):
                found.add(c.name)
                grew = True
    return found


def _first_jobs(module: Module) -> None:
    forms = _form_classes(module.tree)
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Call):
            if _callee(node) in JOB_RUNNERS:
                job = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "job"), None)
                if job is not None:
                    module.jobs.update(_given(module, job))
            for k in node.keywords:
                if k.arg == "write":
                    module.jobs.update(_given(module, k.value))
        elif isinstance(node, ast.ClassDef) and node.name in forms:
            module.jobs.update(f for f in node.body
                               if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                               and f.name == "write")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) \
                and takes_the_campaign(node):
            module.jobs.add(node)


def _references(modules: Iterable[Module]) -> dict[str, list[tuple[Module, ast.AST]]]:
    refs: dict[str, list[tuple[Module, ast.AST]]] = {}
    for m in modules:
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                refs.setdefault(node.id, []).append((m, node))
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                refs.setdefault(node.attr, []).append((m, node))
    return refs


def _reachable_only_from_jobs(modules: list[Module]) -> None:
    refs = _references(modules)
    grew = True
    while grew:
        grew = False
        for m in modules:
            for fn in m.functions():
                if isinstance(fn, ast.Lambda) or m.in_jobs(fn):
                    continue
                seen = refs.get(fn.name, [])
                if seen and all(other.in_jobs(node) for other, node in seen):
                    m.jobs.add(fn)
                    grew = True


@dataclass(frozen=True)
class Index:
    store: dict[str, set[str]]
    campaign_takers: dict[str, set[str]]   # screens module -> functions taking db
    methods_taking_db: dict[str, set[str]]  # screens module -> such methods


def _index(modules: list[Module]) -> Index:
    takers: dict[str, set[str]] = {}
    methods: dict[str, set[str]] = {}
    for m in modules:
        top = {n for n in m.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for fn in m.functions():
            if isinstance(fn, ast.Lambda) or not takes_the_campaign(fn):
                continue
            (takers if fn in top else methods).setdefault(m.name, set()).add(fn.name)
    for p in SCREENS.rglob("*.py"):  # the allow-listed screens' helpers count too
        name = _module_name(p)
        if name not in takers:
            tree = ast.parse(p.read_text(encoding="utf-8"))
            takers[name] = {n.name for n in tree.body
                            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                            and takes_the_campaign(n)}
    return Index(_store_functions(), takers, methods)


def _store_call(m: Module, call: ast.Call, index: Index) -> str | None:
    """What makes ``call`` a store call (None: it is not one)."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr == "campaign_db":
        return "the open campaign (campaign_db)"
    if isinstance(f, ast.Attribute):
        owner = f.value
        owner_name = owner.id if isinstance(owner, ast.Name) else \
            owner.attr if isinstance(owner, ast.Attribute) else ""
        if owner_name in ("db", "_db"):
            return f"a CampaignDB method ({f.attr})"
        if isinstance(owner, ast.Name) and owner.id in m.modules:
            return _function_of(m.modules[owner.id], f.attr, index)
        if isinstance(owner, ast.Name) and owner.id == "self" \
                and f.attr in index.methods_taking_db.get(m.name, set()):
            return f"a method that takes the campaign ({f.attr})"
        return None
    if isinstance(f, ast.Name):
        whole = m.names.get(f.id)
        if whole is not None:
            module, _, name = whole.rpartition(".")
            return _function_of(module, name, index)
        if f.id in index.campaign_takers.get(m.name, set()):
            return f"a function that takes the campaign ({f.id})"
    return None


def _function_of(module: str, name: str, index: Index) -> str | None:
    if module.startswith("ka_tui.store") and name in index.store.get(module, set()):
        if f"{module}.{name}" in PURE_STORE_HELPERS:
            return None
        return f"a store function ({module}.{name})"
    if module.startswith("ka_tui.screens") and name in index.campaign_takers.get(module, set()):
        return f"a function that takes the campaign ({module}.{name})"
    return None


def violations(modules: list[Module]) -> list[str]:
    for m in modules:
        _first_jobs(m)
    _reachable_only_from_jobs(modules)
    index = _index(modules)
    found = []
    for m in modules:
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Call) and m.checked(node) and not m.in_jobs(node):
                why = _store_call(m, node, index)
                if why is not None:
                    found.append(f"{m.label}:{node.lineno}: {ast.unparse(node.func)}(…) — "
                                 f"{why} on the UI thread")
    return found


def _checked_files() -> list[Path]:
    skip = {SCREENS / "store_work.py"}
    def rewritten(p: Path) -> bool:
        rel = p.relative_to(SCREENS)
        return rel.parts[0] in BEING_REWRITTEN or rel.as_posix() in BEING_REWRITTEN

    return sorted(p for p in SCREENS.rglob("*.py") if p not in skip and not rewritten(p))


def _modules() -> list[Module]:
    out = [Module(_module_name(p), str(p.relative_to(ROOT)),
                  ast.parse(p.read_text(encoding="utf-8"))) for p in _checked_files()]
    out += [Module(_module_name(p), str(p.relative_to(ROOT)),
                   ast.parse(p.read_text(encoding="utf-8")), app_actions_only=True)
            for p in APP_MODULES]
    return out


def _planted(source: str, *, app: bool = False) -> list[str]:
    label = "ka_tui/app.py" if app else "ka_tui/screens/planted.py"
    name = "ka_tui.app" if app else "ka_tui.screens.planted"
    return violations([Module(name, label, ast.parse(source), app_actions_only=app)])


# -- the rule on the tree --------------------------------------------------------


def test_no_screen_touches_the_store_on_the_ui_thread() -> None:
    assert violations(_modules()) == []


def test_the_allowlist_names_only_screens_that_exist() -> None:
    assert all((SCREENS / name / "__init__.py").exists() or (SCREENS / name).is_file()
               for name in BEING_REWRITTEN)


def test_the_pure_helpers_are_store_functions_that_take_no_campaign() -> None:
    store = _store_functions()
    for whole in PURE_STORE_HELPERS:
        module, _, name = whole.rpartition(".")
        assert name in store[module], whole
        tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
        [fn] = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        assert not takes_the_campaign(fn), whole


# -- the rule on planted code: it fails where it must ----------------------------


def test_a_call_of_the_open_campaign_on_the_ui_thread_fails() -> None:
    found = _planted("""
class S:
    def on_mount(self):
        door(self).campaign_db()
""")
    assert found == ["ka_tui/screens/planted.py:4: door(self).campaign_db(…) — the open "
                     "campaign (campaign_db) on the UI thread"]


def test_store_functions_by_module_or_by_name_fail_outside_a_job() -> None:
    found = _planted("""
from ka_tui.store import missions
from ka_tui.store.campaign_state import overview as look
class S:
    def on_key(self, db_value):
        missions.unlinked(db_value)
        look(db_value)
        missions.members_text(None)
""")
    assert [f.split(" — ")[1] for f in found] == [
        "a store function (ka_tui.store.missions.unlinked) on the UI thread",
        "a store function (ka_tui.store.campaign_state.overview) on the UI thread"]


def test_a_hand_rolled_thread_worker_is_no_job() -> None:
    found = _planted("""
from textual import work
from ka_tui.store.campaign import house_rules
class S:
    @work(thread=True)
    def load(self):
        house_rules(door(self).campaign_db())
    def other(self):
        self.run_worker(lambda: house_rules(door(self).campaign_db()), thread=True)
""")
    assert len(found) == 4


def test_jobs_forms_and_what_only_jobs_reach_may_call_the_store() -> None:
    assert _planted("""
from ka_tui.store.campaign_state import overview, repairs
from ka_tui.screens.store_work import store_work, file_work
class Form(FormScreen):
    def write(self, values):
        return overview(door(self).campaign_db())
class Sub(Form):
    def write(self, values):
        return repairs(door(self).campaign_db())
class S:
    def on_mount(self):
        store_work(self, lambda db: self._read(db), group="g")
        store_work(self, self._named, group="g")
        file_work(self, job=self._files, group="g")
        open_form(write=lambda values: overview(door(self).campaign_db()))
    def _read(self, db):
        return overview(db) + self._deeper()
    def _deeper(self):
        return repairs(door(self).campaign_db())
    def _named(self, db):
        return db.connect()
    def _files(self):
        return door(self).campaign_db()
""") == []


def test_a_function_taking_the_campaign_called_outside_a_job_fails() -> None:
    found = _planted("""
from ka_tui.screens.air import data
from ka_tui.screens.campaign.data import read_view
class S:
    def _read(self, db):
        return 1
    def on_mount(self):
        self._read(None)
        data.load_battle(None, 1)
        read_view(None, "overview", "")
""")
    assert len(found) == 3 and all("takes the campaign" in f for f in found)


def test_a_helper_reached_from_a_job_and_from_a_key_fails() -> None:
    found = _planted("""
from ka_tui.screens.store_work import store_work
class S:
    def on_mount(self):
        store_work(self, lambda db: self._fetch(), group="g")
    def on_key(self):
        self._fetch()
    def _fetch(self):
        return door(self).campaign_db().path
""")
    assert len(found) == 1 and ":9: " in found[0]


def test_an_app_action_is_checked_and_the_door_itself_is_not() -> None:
    found = _planted("""
from ka_tui.store.backups import list_backups
class App:
    def campaign_db(self):
        return open_campaign(self.db_path)
    def action_list_backups(self):
        list_backups(self.db_path)
""", app=True)
    assert found == ["ka_tui/app.py:7: list_backups(…) — a store function "
                     "(ka_tui.store.backups.list_backups) on the UI thread"]
