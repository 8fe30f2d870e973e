#!/usr/bin/env python3
"""The two set-up commands: `python3 make.py run` and `python3 make.py test`.

Needs only Python 3.11+. Creates `.venv`, installs the project (again only when pyproject.toml changed),
then runs the platform or the test suite inside it.
"""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
STAMP = ROOT / ".install-stamp"


def sh(*args: str, **kwargs) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, cwd=ROOT, check=True, **kwargs)


def install(extras: str) -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - make.py may be started by an older python3
        sys.exit(f"Svara needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    if not PYTHON.exists():
        sh(sys.executable, "-m", "venv", str(VENV))
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    sh(str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    sh(str(PYTHON), "-m", "pip", "install", "--quiet", "-e", f".[{extras}]")
    STAMP.write_text(wanted)


# One set of extras for both commands, so switching between run and test never reinstalls.
EXTRAS = "dev,bench"


def run(argv: list[str]) -> None:
    install(EXTRAS)
    manage = [str(PYTHON), "manage.py"]
    sh(*manage, "compile_translations")
    sh(*manage, "migrate", "--noinput")
    sh(*manage, "load_demo")
    sh(*manage, "serve", *argv)


def test(argv: list[str]) -> None:
    install(EXTRAS)
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    sh(str(PYTHON), "-m", "ruff", "check", ".")
    sh(str(PYTHON), "manage.py", "compile_translations", env=env)
    result = subprocess.run([str(PYTHON), "-m", "pytest", *argv], cwd=ROOT, env=env)
    sys.exit(result.returncode)


COMMANDS = {"run": run, "test": test}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit("usage: python3 make.py run [--port N] | python3 make.py test [pytest arguments]")
    try:
        COMMANDS[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
    except KeyboardInterrupt:
        sys.exit(130)
