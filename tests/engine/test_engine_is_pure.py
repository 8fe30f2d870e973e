"""The engine is pure Python (ARCHITECTURE.md): it imports nothing from Django, Channels, Celery or the rest of the
project, so it runs anywhere (simulations, benchmarks, bots) and its rules are tested without a database."""

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "tables" / "engine"
FORBIDDEN_ROOTS = {
    "django",
    "channels",
    "celery",
    "kombu",
    "daphne",
    "allauth",
    "accounts",
    "wallet",
    "lobby",
    "config",
}


def engine_modules():
    return sorted(ENGINE.rglob("*.py"))


def module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path, module=None):
    """Every module name the file imports, relative imports resolved, plus import_module("...") strings."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = (module or module_name(path)).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module
            names.append(prefix)
            names += [f"{prefix}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if (
                called in {"import_module", "__import__"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names.append(str(node.args[0].value))
    return names


def forbidden(name):
    root = name.split(".")[0]
    if root in FORBIDDEN_ROOTS:
        return True
    # tables.* is the Django app; only tables.engine.* is the engine
    return (
        root == "tables"
        and name != "tables"
        and not (name == "tables.engine" or name.startswith("tables.engine."))
    )


def test_the_checker_recognises_forbidden_imports():
    assert forbidden("django.db")
    assert forbidden("channels")
    assert forbidden("celery.app")
    assert forbidden("wallet.services")
    assert forbidden("tables.models")
    assert forbidden("config.settings")
    assert not forbidden("tables.engine.points")
    assert not forbidden("itertools")


def test_the_checker_finds_every_kind_of_import(tmp_path):
    source = tmp_path / "sneaky.py"
    source.write_text(
        "import os, django.db\n"
        "from .. import models\n"
        "from ..services import act\n"
        "from . import cards\n"
        "def later():\n"
        "    import celery\n"
        "    importlib.import_module('wallet.services')\n",
        encoding="utf-8",
    )
    names = imported_names(source, "tables.engine.sneaky")
    assert sorted(name for name in names if forbidden(name)) == [
        "celery",
        "django.db",
        "tables.models",
        "tables.services",
        "tables.services.act",
        "wallet.services",
    ]
    assert "tables.engine.cards" in names


def test_engine_modules_import_nothing_from_django_or_the_project():
    modules = engine_modules()
    assert ENGINE / "cards.py" in modules and ENGINE / "points.py" in modules
    offenders = {
        str(path.relative_to(ROOT)): [name for name in imported_names(path) if forbidden(name)]
        for path in modules
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_importing_the_whole_engine_loads_no_django_in_a_fresh_interpreter():
    names = [module_name(path) for path in engine_modules()]
    script = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN_ROOTS)!r})\n"
        "print(loaded)\n"
        "assert 'django' not in sys.modules, loaded\n"
        "assert not loaded, loaded\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "[]"
