"""A bare Channels echo consumer on the platform's stack: the physical floor for `python -m bench live`.

    python -m config.web -b 127.0.0.1 -p PORT bench.echo_asgi:application

The same settings module (config.settings.production in the bench), the same middleware as the platform's
sockets (origin check, session lookup), the same channel layer (it joins and leaves a Redis group like a table
socket does); on every frame it sends the frame straight back. No database work per frame, no engine: what is
left of a round trip is daphne, Channels, the socket and the client.

`/ws/floor/<group>/` (`bench live --floor`) carries a table's change the way the platform does, with nothing else:
the frame is answered at once and sent through the channel layer to the group, and every other member's consumer
sends it on. What a table's action costs the stack itself, without the door, the engine or rendering a view.
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


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"floor-{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)  # in the group before its first turn
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)  # the answer, as the actor's snapshot
        await self.channel_layer.group_send(self.group, {"type": "floor.copy", "text": text_data,
                                                         "sender": self.channel_name})  # fmt: skip

    async def floor_copy(self, message):
        if message["sender"] != self.channel_name:  # the actor had his answer
            await self.send(text_data=message["text"])


sockets = URLRouter([path("ws/echo/<int:group>/", EchoConsumer.as_asgi()),
                     path("ws/floor/<int:group>/", FloorConsumer.as_asgi())])  # fmt: skip
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(sockets)),
    }
)
