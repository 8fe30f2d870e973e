"""A web process: daphne on uvloop's event loop. `python -m config.web` takes daphne's own arguments (Procfile).

daphne makes its event loop when `daphne.server` is imported (Twisted's asyncio reactor runs on it), so the loop's
kind is chosen here, before that import. uvloop's loop schedules callbacks, wakes from the door's threads and polls
sockets in C: three alternating pairs at 50 busy tables, 4 % less daphne CPU an action and 2–5 % more actions a
second (docs/benchmarks.md, session 14).
"""

import asyncio
import sys


def install() -> None:
    """Every event loop made from now on is uvloop's (daphne's among them, if it is not imported yet)."""
    import uvloop

    if "daphne.server" in sys.modules:
        raise RuntimeError("daphne.server was imported first: its event loop is asyncio's own already")
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def main() -> None:
    install()
    from daphne.cli import CommandLineInterface

    sys.argv[0] = "daphne"  # its usage line names daphne
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
