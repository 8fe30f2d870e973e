"""The rules page (/rules/): docs/rules.md, the site's copy of the rules of both families, rendered once per
process and language. The page and the code cite the same decisions (D1, D2, …), so there is one text to keep
right; docs/rules.ru.md and docs/rules.bg.md are its translations, shown to a reader of Russian or Bulgarian (the
English file stands where they differ)."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote

import markdown
from django.conf import settings
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

RULES_FILE = settings.BASE_DIR / "docs" / "rules.md"


def rules_file(language: str):
    """The rules in `language` (docs/rules.<language>.md), else the English ones."""
    translated = RULES_FILE.with_suffix(f".{language}.md")
    return translated if language != "en" and translated.exists() else RULES_FILE


@lru_cache(maxsize=len(settings.LANGUAGES))
def rules_html(language: str = "en") -> str:
    text = rules_file(language).read_text(encoding="utf-8")
    # The title and the note for developers (it speaks of the source texts) give way to the page's own heading:
    # the page starts at the families' table.
    body = text[text.index("\n| ") :]
    # attr_list: a translated family heading keeps its English id ("### Классическая {#classic}"), which the
    # examples' links below look for.
    html = markdown.markdown(body, extensions=["tables", "toc", "attr_list"], output_format="html")
    # Headings one level down: the page's <h1> is the template's.
    html = re.sub(r"<(/?)h([1-5])", lambda m: f"<{m.group(1)}h{int(m.group(2)) + 1}", html)
    return _examples_to_the_counter(html)


_CARD = r"(?:10|[6-9TJQKA])[♠♥♦♣]"
_EXAMPLE = re.compile(rf"({_CARD} {_CARD} {_CARD})(?= = )")
_FAMILY_HEADING = re.compile(r'<h4 id="(classic|bulgarian)">')


def _examples_to_the_counter(html: str) -> str:
    """Each example hand ("K♠ 9♥ 7♦ = 10") links to Count the hand, scored in the family of its section."""
    parts = _FAMILY_HEADING.split(html)  # text, family, text, family, text …
    out = [parts[0]]
    for family, text in zip(parts[1::2], parts[2::2], strict=True):
        linked = _EXAMPLE.sub(
            lambda m, family=family: (
                f'<a class="count-example" href="/count/?family={family}&amp;cards={quote(m.group(1))}">'
                f"{m.group(1)}</a>"
            ),
            text,
        )
        out += [f'<h4 id="{family}">', linked]
    return "".join(out)


@require_GET
def rules_page(request):
    rules = rules_html(get_language())  # our own files, rendered by Markdown
    return render(request, "lobby/rules.html", {"rules": mark_safe(rules)})
