"""/favicon.ico (asked for by pages without our icon link, such as the admin) leads to the site's SVG icon."""

from django.contrib.staticfiles import finders


def test_favicon_ico_redirects_to_the_svg_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("img/favicon.svg")
    assert finders.find("img/favicon.svg")
