"""Production: several daphne processes, a Celery worker and beat, PostgreSQL and Redis.

Reads SECRET_KEY, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, DATABASE_URL, REDIS_URL and the EMAIL_* variables.
The ASGI and Celery entry points (config/asgi.py, config/celery.py) fall back to these settings, never to the
debug ones: a process started without DJANGO_SETTINGS_MODULE either runs with DEBUG off or, with no SECRET_KEY,
refuses to start.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F401,F403
from .base import _DEV_SECRET_KEY, STORAGES, env_bool

DEBUG = False
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY or SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a secret of your own: the production settings refuse to start without it."
    )
STORAGES["staticfiles"] = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
WHITENOISE_USE_FINDERS = False  # collectstatic's STATIC_ROOT, hashed names cached for a year
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
