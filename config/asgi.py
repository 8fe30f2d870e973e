"""ASGI entry point: HTTP through Django, WebSockets through Channels behind origin and session checks."""

import gc
import os

from django.core.asgi import get_asgi_application

# daphne runs this in production: without DJANGO_SETTINGS_MODULE it gets the production settings (which refuse to
# start without SECRET_KEY), never the debug ones. `manage.py` (and so `serve`) keeps the development default.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.client_address import TrustedProxies  # noqa: E402
from config.outage import TellWhenUnavailable  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

# The client's address comes from X-Forwarded-For only when a trusted proxy sent it (SVARA_TRUSTED_PROXIES).
application = TrustedProxies(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Without the origin check any site could open a socket with the player's cookies. A socket the
            # platform cannot serve (PostgreSQL or Redis out of reach) is told so (config/outage.py).
            "websocket": AllowedHostsOriginValidator(
                TellWhenUnavailable(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
            ),
        }
    ),
    settings.SVARA_TRUSTED_PROXIES,
)

# Everything loaded so far (Django, the apps, their modules) lives as long as the process: the cyclic collector need
# not scan it again at every full collection (a pause of the whole process, the GIL held). A socket's frames and
# snapshots make thousands of short-lived containers a second: the youngest generation is collected every 20,000
# allocations rather than every 700 (bench live, three alternating pairs: 1-13 % less CPU per action).
gc.collect()  # startup's own garbage is not kept for good
gc.freeze()
gc.set_threshold(20_000, 20, 10)
