"""channels-redis, with a connection pool that waits for a free connection instead of failing.

redis-py's asyncio pool raises MaxConnectionsError once its connections (100) are all in use. When a thousand
sockets closed at once, their `group_discard` calls raced for them, most failed, and those group memberships stayed
in Redis until `group_expiry`. A blocking pool of the same size queues them instead: every membership is released.
"""

from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayer(_RedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        address = host.pop("address")
        host.setdefault("max_connections", 100)
        host.setdefault("timeout", 30)  # seconds to wait for a free connection
        return BlockingConnectionPool.from_url(address, **host)
