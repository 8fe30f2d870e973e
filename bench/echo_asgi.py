"""A bare Channels echo consumer on the platform's stack: the physical floor for `python -m bench live`.

    daphne -b 127.0.0.1 -p PORT bench.echo_asgi:application

The same settings module (config.settings.production in the bench), the same middleware as the platform's
sockets (origin check, session lookup), the same channel layer (it joins and leaves a Redis group like a table
socket does); on every frame it sends the frame straight back. No database work per frame, no engine: what is
left of a round trip is daphne, Channels, the socket and the client.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"echo-{self.scope['url_route']['kwargs']['group']}"
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter([path("ws/echo/<int:group>/", EchoConsumer.as_asgi())]))
        ),
    }
)
