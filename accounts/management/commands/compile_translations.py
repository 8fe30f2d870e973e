"""Compile locale/*/LC_MESSAGES/*.po into the .mo files Django reads (they are not committed).

Django's compilemessages needs GNU gettext's msgfmt; a machine without it (CI, a fresh laptop) gets the same
files from polib, pure Python. A .mo older than its .po is rebuilt; the others are left alone."""

import shutil
from pathlib import Path

import polib
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


def catalogues() -> list[Path]:
    return sorted(p for root in settings.LOCALE_PATHS for p in Path(root).glob("*/LC_MESSAGES/*.po"))


class Command(BaseCommand):
    help = "Compile the translation catalogues (locale/) into .mo files, with msgfmt or else polib."

    def add_arguments(self, parser):
        parser.add_argument("--polib", action="store_true", help="use polib even where msgfmt is installed")

    def handle(self, *args, **options):
        if shutil.which("msgfmt") and not options["polib"]:
            call_command("compilemessages", locale=[], verbosity=0, ignore_patterns=[".venv/*"])
            for po in catalogues():
                if not po.with_suffix(".mo").exists():  # compilemessages skipped it: let polib make it
                    polib.pofile(str(po)).save_as_mofile(str(po.with_suffix(".mo")))
            return
        for po in catalogues():
            mo = po.with_suffix(".mo")
            if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
                continue
            polib.pofile(str(po)).save_as_mofile(str(mo))
