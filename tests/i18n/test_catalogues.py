"""The translation catalogues (locale/, docs/translations.md): every string the site marks is in them, each in
Russian and Bulgarian, with the same placeholders, and the set-up commands compile them without GNU gettext."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
LANGUAGES = ["ru", "bg"]
DOMAINS = ["django", "djangojs"]
# What makemessages reads: the project's templates and Python (tests, tools and the virtualenv left out) and its
# JavaScript.
SOURCES = [
    "accounts",
    "bots",
    "config",
    "embedded",
    "lobby",
    "stats",
    "tables",
    "templates",
    "wallet",
    "static",
]
PLACES = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
TAGS = re.compile(r"</?\w+[^>]*>")
CATALOGUES = [(language, domain) for language in LANGUAGES for domain in DOMAINS]


def catalogue(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"))


def keys(po: polib.POFile) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in po if not entry.obsolete}


@pytest.mark.parametrize("language,domain", CATALOGUES)
def test_every_message_is_translated_none_fuzzy(language, domain):
    po = catalogue(language, domain)
    assert len(po) > 100, "the catalogue is nearly empty"
    untranslated = [entry.msgid for entry in po if not entry.obsolete and not entry.translated()]
    fuzzy = [entry.msgid for entry in po if "fuzzy" in entry.flags]
    assert not untranslated, f"{language}/{domain}: not translated: {untranslated}"
    assert not fuzzy, f"{language}/{domain}: fuzzy (unchecked) translations: {fuzzy}"
    assert not po.metadata_is_fuzzy, "a fuzzy header is skipped by msgfmt: its Plural-Forms would be lost"
    assert po.metadata["Language"] == language
    assert po.metadata["Plural-Forms"].startswith("nplurals=3;" if language == "ru" else "nplurals=2;")


@pytest.mark.parametrize("language,domain", CATALOGUES)
def test_a_translation_keeps_the_placeholders_and_tags_of_its_message(language, domain):
    wrong = []
    for entry in catalogue(language, domain):
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            for pattern in (PLACES, TAGS):
                if sorted(set(pattern.findall(entry.msgid))) != sorted(set(pattern.findall(text))):
                    wrong.append((entry.msgid, text))
    assert not wrong, f"{language}/{domain}: {wrong}"


@pytest.mark.parametrize("language,domain", CATALOGUES)
def test_a_translation_is_in_its_own_language(language, domain):
    """Not the English left in place: every message with words has Cyrillic in its translation (names of cards,
    codes and formats like "SHA-256 …" or "%(move)s %(amount)s" have no words to translate)."""
    english = []
    for entry in catalogue(language, domain):
        words = re.findall(r"[A-Za-z]{3,}", PLACES.sub("", TAGS.sub("", entry.msgid)))
        text = entry.msgstr_plural[0] if entry.msgid_plural else entry.msgstr
        if words and not re.search("[\u0400-\u04ff]", text) and entry.msgid != "%(rank)s of %(suit)s":
            english.append((entry.msgid, text))
    assert not english, f"{language}/{domain}: {english}"


def test_the_catalogues_hold_every_marked_string_and_no_stale_one(tmp_path):
    """makemessages run afresh on the sources (into a copy of the catalogues) finds exactly the messages the
    committed catalogues hold: a string marked in a template, a view or a script but missing from them fails here,
    and so does one left behind after its source changed."""
    if not shutil.which("xgettext"):
        pytest.skip("GNU gettext's xgettext is needed to extract the messages (apt-get install gettext)")
    for name in SOURCES:
        (tmp_path / name).symlink_to(ROOT / name)
    shutil.copytree(LOCALE, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
            for domain in DOMAINS:
                call_command("makemessages", locale=LANGUAGES, domain=domain, symlinks=True, no_obsolete=True,
                             verbosity=0)  # fmt: skip
    finally:
        os.chdir(here)
    for language, domain in CATALOGUES:
        fresh = keys(polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / f"{domain}.po")))
        committed = keys(catalogue(language, domain))
        assert fresh - committed == set(), (
            f"{language}/{domain}: marked in the sources, missing from the catalogue"
        )
        assert committed - fresh == set(), f"{language}/{domain}: in the catalogue, no longer in the sources"


def test_compile_translations_makes_the_mo_files_with_polib_alone(tmp_path):
    """Without msgfmt (CI need not have it) the set-up commands compile every catalogue with polib, and Django
    reads the result."""
    shutil.copytree(LOCALE, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("compile_translations", polib=True)
    for language, domain in CATALOGUES:
        mo = polib.mofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"))
        assert len(mo) == len([e for e in catalogue(language, domain) if not e.obsolete])
    translation.trans_real._translations.clear()  # read the compiled files afresh
    try:
        with override_settings(LOCALE_PATHS=[tmp_path / "locale"]), translation.override("ru"):
            assert translation.gettext("Log out") == "Выйти"
            assert translation.ngettext("%(shown)s deal", "%(shown)s deals", 5) == "%(shown)s раздач"
        with override_settings(LOCALE_PATHS=[tmp_path / "locale"]), translation.override("bg"):
            assert translation.gettext("three sevens") == "три седмици"
    finally:
        translation.trans_real._translations.clear()
