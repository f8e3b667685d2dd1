"""The shape of the code, read from its imports with ``ast``: no circles, no private
names taken from other modules, no imports hidden in functions of the web layer, the
web layer's direction (app -> features -> base -> core) kept, route modules imported
by the app alone, and play/ telling other features of its matches only through the
listeners they register.

Nothing is imported or run: the source files are parsed, so a circle that Python
would resolve at run time (or that a function-level import hides) still shows.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
ROOT = SRC / "jackpot"
WEB = "jackpot.web"
CORE = ("jackpot.engine", "jackpot.fair", "jackpot.strategy")
#: Below the web layer too: the catalogs and formats, which the core does not import.
I18N = "jackpot.i18n"
#: The web layer's bottom: what every feature may use, and which uses no feature.
BASE = "jackpot.web.base"
#: The web layer's top: the modules that may import every feature (the app, and
#: what it plugs together: the listeners and the background steps).
APP = "jackpot.web.app"
TOP = (APP, "jackpot.web.wiring")
MAX_WEB_LINES = 400


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    is_package: bool
    #: module imported -> names taken from it (empty for ``import x``), with lines.
    imports: dict[str, list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    #: (line, text) of imports written inside a function or class.
    nested: list[tuple[int, str]] = field(default_factory=list)
    #: (line, text) of private names taken from another module.
    private: list[tuple[int, str]] = field(default_factory=list)


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _load() -> dict[str, Module]:
    modules = {}
    for path in sorted(ROOT.rglob("*.py")):
        name, is_package = _module_name(path)
        modules[name] = Module(name, path, ast.parse(path.read_text(), str(path)), is_package)
    for mod in modules.values():
        _read_imports(mod, modules)
    return modules


def _known(name: str, modules: dict[str, Module]) -> str | None:
    """The project module ``name`` names (or the nearest package above it)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _absolute(mod: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = mod.name if mod.is_package else mod.name.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _read_imports(mod: Module, modules: dict[str, Module]) -> None:
    aliases: dict[str, str] = {}  # local name -> project module it is bound to

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
            )
            if isinstance(child, ast.Import | ast.ImportFrom):
                take(child, inner)
            visit(child, inner)

    def take(node: ast.Import | ast.ImportFrom, nested: bool) -> None:
        text = ast.unparse(node)
        if nested:
            mod.nested.append((node.lineno, text))
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _known(alias.name, modules)
                if target is not None:
                    mod.imports[target].append(("", node.lineno))
                    local = alias.asname or alias.name.partition(".")[0]
                    aliases[local] = target if alias.asname else alias.name.partition(".")[0]
            return
        source = _absolute(mod, node)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            if submodule in modules:
                mod.imports[submodule].append(("", node.lineno))
                aliases[alias.asname or alias.name] = submodule
                continue
            target = _known(source, modules)
            if target is None:
                continue
            mod.imports[target].append((alias.name, node.lineno))
            if _is_private(alias.name) and target != mod.name:
                mod.private.append((node.lineno, f"{alias.name} from {target}"))

    visit(mod.tree, False)
    for node in ast.walk(mod.tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and _is_private(node.attr)
            and aliases[node.value.id] != mod.name
        ):
            mod.private.append((node.lineno, f"{node.value.id}.{node.attr}"))


MODULES = _load()


def _graph() -> dict[str, set[str]]:
    return {m.name: {t for t in m.imports if t != m.name} for m in MODULES.values()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def _describe(circle: list[str]) -> str:
    lines = [" <-> ".join(circle)]
    for a in circle:
        for b in circle:
            if b in MODULES[a].imports and a != b:
                names = sorted({n or "(module)" for n, _ in MODULES[a].imports[b]})
                lines.append(f"    {a} -> {b}: {', '.join(names)}")
    return "\n".join(lines)


def _rel(mod: Module) -> str:
    return str(mod.path.relative_to(SRC.parent))


def test_the_reader_sees_the_whole_tree() -> None:
    """A check that read nothing would pass: make sure the parser saw the code."""
    assert {"jackpot.engine.match", "jackpot.fair.verify", "jackpot.cli.web"} <= set(MODULES)
    assert sum(1 for m in MODULES if m.startswith(WEB + ".")) > 20
    assert any(MODULES[m].imports for m in MODULES if m.startswith(WEB + "."))


def test_no_import_circles() -> None:
    circles = _circles(_graph())
    assert not circles, "import circles in src/jackpot:\n" + "\n".join(map(_describe, circles))


def test_no_private_names_from_other_modules() -> None:
    found = [f"{_rel(m)}:{line}: {text}" for m in MODULES.values() for line, text in m.private]
    assert not found, "private names taken from another module:\n" + "\n".join(found)


def test_no_imports_inside_functions_of_the_web_layer() -> None:
    found = [
        f"{_rel(m)}:{line}: {text}"
        for m in MODULES.values()
        if m.name == WEB or m.name.startswith(WEB + ".")
        for line, text in m.nested
    ]
    assert not found, "imports inside functions or classes in src/jackpot/web:\n" + "\n".join(
        found
    )


def _web_place(name: str) -> str | None:
    """Which part of the web layer a module is in: "app", "base", a feature
    package's name, or None for one outside every part."""
    if name in TOP:
        return "app"
    rest = name[len(WEB) + 1 :].split(".")
    if len(rest) >= 2 or MODULES[name].is_package:
        return rest[0]
    return None


def test_every_web_module_has_its_place() -> None:
    """app.py and wiring.py at the top; everything else in ``base`` or a feature
    package."""
    loose = [
        _rel(m)
        for m in MODULES.values()
        if m.name.startswith(WEB + ".") and _web_place(m.name) is None
    ]
    assert not loose, "modules of src/jackpot/web outside base/ and the features:\n" + "\n".join(
        loose
    )


def test_imports_run_app_features_base_core() -> None:
    wrong = []
    for m in MODULES.values():
        targets = [t for t in m.imports if t != m.name]
        if m.name.startswith(CORE):
            wrong += [f"{m.name} -> {t} (the core imports nothing above it)"
                      for t in targets if not t.startswith(CORE)]
        if m.name.startswith(I18N):
            wrong += [f"{m.name} -> {t} (the catalogs stand below the web layer)"
                      for t in targets if not t.startswith((I18N, *CORE))]
        if not m.name.startswith(WEB + "."):
            continue
        place = _web_place(m.name)
        for t in targets:
            if not t.startswith(WEB + "."):
                continue
            there = _web_place(t)
            if place == "base" and there != "base":
                wrong.append(f"{m.name} -> {t} (base imports no feature)")
            elif place != "app" and there == "app":
                wrong.append(f"{m.name} -> {t} (only app.py and wiring.py are above the features)")
    assert not wrong, "imports against the direction app -> features -> base -> core:\n" + (
        "\n".join(wrong)
    )


def test_feature_packages_depend_one_way() -> None:
    """Two features may not import each other, even through different modules."""
    packages: dict[str, set[str]] = defaultdict(set)
    for m in MODULES.values():
        if not m.name.startswith(WEB + "."):
            continue
        here = _web_place(m.name)
        for t in m.imports:
            there = _web_place(t) if t.startswith(WEB + ".") else None
            if here and there and here != there:
                packages[here].add(there)
    circles = _circles(packages)
    assert not circles, "web packages that import each other: " + "; ".join(
        " <-> ".join(c) for c in circles
    )


def _defines_routes(mod: Module) -> bool:
    """The module makes a router of its own (``APIRouter(...)`` at its top level)."""
    for node in mod.tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if isinstance(value, ast.Call):
            func = value.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == "APIRouter":
                return True
    return False


def test_route_modules_are_imported_only_by_the_app() -> None:
    """A module that defines routes is an entry point: what others need from it
    belongs in a module without routes, which the routes and the others both use."""
    routes = {m.name for m in MODULES.values() if _defines_routes(m)}
    assert {"jackpot.web.play.edge.api", "jackpot.web.accounts.tokens"} <= routes  # it reads them
    wrong = sorted(
        f"{m.name} -> {t}"
        for m in MODULES.values()
        if m.name != APP
        for t in m.imports
        if t in routes and t != m.name
    )
    assert not wrong, "route modules imported by other than app.py:\n" + "\n".join(wrong)


#: Features that hear of play/'s matches through the listeners they register
#: (web/wiring.py), so that play/ never imports them: whatever listens to matches
#: (a daily board, tournaments) may stand above play/ without a circle.
LISTENERS_OF_PLAY = ("jackpot.web.players", "jackpot.web.notify")


def test_play_imports_none_of_its_listeners() -> None:
    wrong = sorted(
        f"{m.name} -> {t}"
        for m in MODULES.values()
        if m.name.startswith("jackpot.web.play.")
        for t in m.imports
        if t.startswith(LISTENERS_OF_PLAY)
    )
    assert any(m.startswith("jackpot.web.play.") for m in MODULES)
    assert not wrong, "play/ imports a feature that listens to it:\n" + "\n".join(wrong)


def test_web_modules_are_short_and_say_what_they_hold() -> None:
    long, mute = [], []
    for m in MODULES.values():
        if not (m.name == WEB or m.name.startswith(WEB + ".")):
            continue
        lines = len(m.path.read_text().splitlines())
        if lines > MAX_WEB_LINES:
            long.append(f"{_rel(m)}: {lines} lines")
        lines_of_doc = (ast.get_docstring(m.tree) or "").splitlines()
        # One line that says it all (a sentence), then a blank line if more follows.
        if not lines_of_doc or not lines_of_doc[0].endswith(".") or (
            len(lines_of_doc) > 1 and lines_of_doc[1].strip()
        ):
            mute.append(_rel(m))
    assert not long, f"web modules over {MAX_WEB_LINES} lines:\n" + "\n".join(long)
    assert not mute, "web modules not opened by a one-line docstring:\n" + "\n".join(mute)


REPO = SRC.parent
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
#: Where a path in the documents may be written from.
PATH_ROOTS = (REPO, SRC, ROOT, ROOT / "web")


def test_documents_name_only_files_of_this_repository() -> None:
    """Every ``path/file.ext`` a document shows in backticks exists here, and nothing
    refers to the shared design file, which is not in this repository."""
    outside = "DESIGN" + ".md"
    missing, foreign = [], []
    for doc in DOCS:
        text = doc.read_text()
        for path in re.findall(r"`([\w./-]+/[\w.-]+\.(?:py|js|md|mjs|html|ini))`", text):
            if not any((root / path).exists() for root in PATH_ROOTS):
                missing.append(f"{doc.relative_to(REPO)}: {path}")
    for path in [*DOCS, *REPO.glob("src/jackpot/**/*.*"), *REPO.glob("tests/**/*.py")]:
        if path.suffix in {".py", ".js", ".md", ".html"} and outside in path.read_text():
            foreign.append(str(path.relative_to(REPO)))
    assert not missing, "documents name files that are not here:\n" + "\n".join(missing)
    assert not foreign, f"files that refer to {outside}:\n" + "\n".join(foreign)


def test_test_modules_have_distinct_names() -> None:
    """pytest imports test modules and their helpers by file name (no packages here),
    and a plain ``pytest`` at the repository root collects every directory at once, so
    two files of one name anywhere under tests/ stop the whole run at collection (or
    one helper silently shadows the other)."""
    repository = SRC.parent
    tests = repository / "tests"
    names: dict[str, list[str]] = defaultdict(list)
    for path in sorted(tests.rglob("*.py")):
        parts = path.relative_to(tests).parts
        if "node_modules" in parts or path.name in {"conftest.py", "__init__.py"}:
            continue
        names[path.name].append(str(path.relative_to(repository)))
    clashes = [paths for paths in names.values() if len(paths) > 1]
    assert clashes == [], f"test modules sharing a name (rename one): {clashes}"


def test_tests_of_the_migrations_start_from_an_empty_database() -> None:
    """``database_url`` is migrated already (a copy of a template), where an upgrade to
    an older revision changes nothing and a test of a migration would pass without
    running it: a test module that drives alembic takes ``empty_database_url``."""
    tests = SRC.parent / "tests"
    wrong = []
    for path in sorted(tests.rglob("test_*.py")):
        if "node_modules" in path.parts:
            continue
        tree = ast.parse(path.read_text(), str(path))
        imported = {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        } | {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
        if not any(m == "alembic" or m.startswith("alembic.") or m.endswith(".migrate")
                   for m in imported):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                a.arg == "database_url" for a in node.args.args
            ):
                wrong.append(f"{path.relative_to(tests.parent)}::{node.name}")
    assert wrong == [], f"migration tests on an already migrated database: {wrong}"


PLAY = "jackpot.web.play"
#: play/'s wings: the move's SQL (and the matches kept as committed), and what faces
#: the network. Features above play/ use its root, the match's life, and the app
#: mounts the edge's routes.
PLAY_WINGS = (f"{PLAY}.storage", f"{PLAY}.edge")
#: Where the engine's inner modules and its snapshot may be reached.
STORAGE_WINGS = (f"{PLAY}.storage", f"{BASE}.storage")


def _in(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_only_play_and_the_app_reach_into_plays_wings() -> None:
    """(The ``jackpot`` command stands above the app, and may.)"""
    wrong = sorted(
        f"{m.name} -> {t}"
        for m in MODULES.values()
        if m.name.startswith(WEB + ".") and not _in(m.name, (PLAY,)) and m.name not in TOP
        for t in m.imports
        if _in(t, PLAY_WINGS)
    )
    assert {f"{PLAY}.storage.match_sql", f"{PLAY}.edge.api"} <= set(MODULES)
    assert not wrong, "modules outside play/ that import its wings:\n" + "\n".join(wrong)


def test_the_engine_is_reached_through_its_package_and_its_snapshot_only_by_storage() -> None:
    """Above the core, the engine is ``jackpot.engine``'s public names; its inner
    modules and a match's snapshot (``Match.from_dict``/``to_dict``) are the storage
    wings' business alone (base/storage/snapshots.py reads and writes it)."""
    wrong = []
    for m in MODULES.values():
        if not m.name.startswith(WEB + ".") or _in(m.name, STORAGE_WINGS):
            continue
        wrong += [f"{m.name} -> {t}" for t in m.imports if t.startswith("jackpot.engine.")]
        for node in ast.walk(m.tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("from_dict", "to_dict")
                and isinstance(node.value, ast.Name)
                and node.value.id == "Match"
            ) or (
                isinstance(node, ast.Dict)
                and any(isinstance(k, ast.Constant) and k.value == "state" for k in node.keys)
                and any(
                    isinstance(v, ast.Call)
                    and isinstance(v.func, ast.Attribute)
                    and v.func.attr == "to_dict"
                    for v in node.values
                )
            ):
                wrong.append(f"{_rel(m)}:{node.lineno}: the engine's snapshot")
    assert "jackpot.web.base.storage.snapshots" in MODULES
    assert not wrong, "the engine reached past its public face outside storage:\n" + "\n".join(
        wrong
    )


def _closure(start: str, graph: dict[str, set[str]]) -> dict[str, str]:
    """Every module ``start`` reaches through imports, each with the module it was
    reached from (to say the path)."""
    seen: dict[str, str] = {start: ""}
    todo = [start]
    while todo:
        here = todo.pop()
        for there in sorted(graph.get(here, ())):
            if there not in seen:
                seen[there] = here
                todo.append(there)
    return seen


def test_play_reaches_none_of_its_listeners_even_through_others() -> None:
    graph = _graph()
    wrong = []
    for m in MODULES.values():
        if not m.name.startswith(PLAY + "."):
            continue
        reached = _closure(m.name, graph)
        for there in reached:
            if there.startswith(LISTENERS_OF_PLAY):
                path, step = [there], there
                while reached[step]:
                    step = reached[step]
                    path.append(step)
                wrong.append(" <- ".join(path))
                break
    assert not wrong, "play/ reaches a feature that listens to it:\n" + "\n".join(wrong)


TABLES = f"{BASE}.tables"
#: The tables every feature reads, kept in tables/core.py, and the feature that writes each.
CORE_TABLES = {
    "users": "accounts",
    "credentials": "accounts",
    "matches": "play",
    "seats": "play",
    "record_events": "play",
    "match_events": "play",
}
#: Table modules of a feature's part: Web Push is notify/'s.
TABLE_MODULE_OWNER = {"push": "notify"}
WRITE_CALLS = ("insert", "update", "delete", "insert_ignore", "upsert")
SQL_WRITE = re.compile(r"\b(?:INSERT\s+INTO|UPDATE(?:\s+OR\s+IGNORE)?|DELETE\s+FROM)\s+(\w+)", re.I)


def _table_owners() -> dict[str, str]:
    """Each table's name and the feature that may write it: the one whose
    ``base/tables/<feature>.py`` defines it (core.py's, as CORE_TABLES says)."""
    owners = {}
    for m in MODULES.values():
        if not m.name.startswith(TABLES + "."):
            continue
        module = m.name.rpartition(".")[2]
        for node in m.tree.body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "Table"
                and isinstance(node.value.args[0], ast.Constant)
            ):
                table = str(node.value.args[0].value)
                feature = TABLE_MODULE_OWNER.get(module, module)
                owners[table] = CORE_TABLES[table] if module == "core" else feature
    return owners


def _tables_written(mod: Module, owners: dict[str, str]) -> list[tuple[int, str]]:
    """(line, table) of every write in ``mod``: SQLAlchemy's insert/update/delete (and
    the storage helpers) of a table, and SQL text that writes one."""
    names: dict[str, str] = {}  # local name -> table name, for tables imported by name
    modules: set[str] = set()  # local names bound to a table module
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                local = alias.asname or alias.name
                if node.module == TABLES:
                    modules.add(local)
                elif node.module.startswith(TABLES + ".") and alias.name in {
                    t.replace("-", "_") for t in owners
                }:
                    names[local] = alias.name
    found = []
    for node in ast.walk(mod.tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in WRITE_CALLS
        ):
            for arg in node.args[:2]:
                if isinstance(arg, ast.Name) and arg.id in names:
                    found.append((node.lineno, names[arg.id]))
                elif (
                    isinstance(arg, ast.Attribute)
                    and isinstance(arg.value, ast.Name)
                    and arg.value.id in modules
                    and arg.attr in owners
                ):
                    found.append((node.lineno, arg.attr))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [(node.lineno, t) for t in SQL_WRITE.findall(node.value) if t in owners]
    return found


def test_each_table_lives_with_its_feature_and_only_it_writes_there() -> None:
    """A feature writes its own tables only; what it must change elsewhere it asks the
    owner for (a function, or a listener the owner registered). base/ is not a
    feature: it writes a token's last use as it reads the token (identity.py)."""
    owners = _table_owners()
    assert {"matches", "notices", "challenges", "blocks", "daily_entries"} <= set(owners)
    loose = [
        _rel(m) for m in MODULES.values()
        if m.name.startswith(BASE + ".") and m.name.rpartition(".")[2].startswith("models")
    ]
    assert not loose, "tables outside base/tables/:\n" + "\n".join(loose)
    wrong = []
    seen_writes = 0
    for m in MODULES.values():
        place = _web_place(m.name) if m.name.startswith(WEB + ".") else None
        if place in (None, "base", "app"):
            continue
        for line, table in _tables_written(m, owners):
            seen_writes += 1
            if owners[table] != place:
                wrong.append(f"{_rel(m)}:{line}: {place}/ writes {table} ({owners[table]}/'s)")
    assert seen_writes > 50  # the reader found the writes
    assert not wrong, "features writing another feature's tables:\n" + "\n".join(sorted(wrong))


#: The times that decide what may be seen: a seed held back, a daily deal's end.
SECRET_TIMES = {"seed_hidden_until", "closes_at"}
#: Where those times are compared with a clock: the one rule, and the steps that act
#: when the time comes (the day's close, the deals made ahead, entering a deal).
SECRET_TIME_USERS = {
    "jackpot.web.matches.disclosure",
    "jackpot.web.daily.close",
    "jackpot.web.daily.deals",
    "jackpot.web.daily.entries",
}


def _mentions(node: ast.AST, names: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in names:
            return True
        if isinstance(sub, ast.Constant) and sub.value in names:
            return True
    return False


def test_what_may_be_seen_is_decided_in_disclosure_alone() -> None:
    """A bot's strength, a daily entry's throws and a day's end: one rule
    (matches/disclosure.py), so no page or list can decide otherwise by itself."""
    wrong = []
    for m in MODULES.values():
        if not m.name.startswith(WEB + ".") or m.name in SECRET_TIME_USERS:
            continue
        if m.name.startswith(f"{BASE}.tables"):
            continue
        for node in ast.walk(m.tree):
            compared = isinstance(node, ast.Compare) and _mentions(node, SECRET_TIMES)
            tested = (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("is_", "is_not", "isnot")
                and _mentions(node.func.value, SECRET_TIMES)
            )
            strength = (
                isinstance(node, ast.Compare)
                and _mentions(node, {"strength"})
                and _mentions(node, {"status"})
            )
            if compared or tested or strength:
                wrong.append(f"{_rel(m)}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert not wrong, "what may be seen, decided outside disclosure.py:\n" + "\n".join(wrong)


#: Inside a package, wings that stand above others: none of the lower imports a higher.
WINGS_ABOVE = {
    PLAY: [f"{PLAY}.edge", PLAY, f"{PLAY}.storage"],
    BASE: [f"{BASE}.edge", f"{BASE}.storage", f"{BASE}.live"],
}


def _wing(name: str, order: list[str]) -> int | None:
    """The index in ``order`` of the wing ``name`` is in (the package's root: its
    own index), or None for a module in none of them."""
    for i, wing in enumerate(order):
        if name.startswith(wing + ".") and not any(
            name.startswith(w + ".") for w in order if w != wing and w.startswith(wing + ".")
        ):
            return i
    return None


def test_wings_inside_play_and_base_stand_one_way() -> None:
    wrong = []
    for order in WINGS_ABOVE.values():
        for m in MODULES.values():
            here = _wing(m.name, order)
            if here is None:
                continue
            for t in m.imports:
                there = _wing(t, order)
                if there is not None and there < here:
                    wrong.append(f"{m.name} -> {t} ({order[there]} stands above {order[here]})")
    assert _wing(f"{PLAY}.storage.match_sql", WINGS_ABOVE[PLAY]) == 2
    assert _wing(f"{PLAY}.moves", WINGS_ABOVE[PLAY]) == 1
    assert not wrong, "imports against the wings' order:\n" + "\n".join(sorted(wrong))
