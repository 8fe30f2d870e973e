"""Settings read from the environment, with embedded defaults that need no server.

Embedded defaults: SQLite, the in-memory channel layer, and Celery on kombu's in-memory transport (its worker
and beat run inside the `serve` process). `DATABASE_URL` switches to PostgreSQL (psycopg 3), `REDIS_URL` to
channels-redis and a Redis broker.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.client_address import networks  # pure Python, as is the next
from tables.engine.rules import OFFLINE_SECONDS  # pure Python: safe to import before Django is set up

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Public; the production settings refuse it.
_DEV_SECRET_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"


def _installation_secret_key(path: Path) -> str:
    """The embedded run's own secret (it signs sessions and password-reset links): made once per installation in
    `.secret-key` beside manage.py, so no club's site runs on the public key. Every process of the installation
    reads the same file; the first one to write it wins (a hard link never replaces a file)."""
    try:
        return path.read_text().strip() or _DEV_SECRET_KEY
    except FileNotFoundError:
        pass
    except OSError:
        return _DEV_SECRET_KEY  # a read-only checkout: the development key, as before
    import secrets
    import tempfile

    try:
        with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=".secret-key-", delete=False) as draft:
            draft.write(secrets.token_urlsafe(50))
        os.chmod(draft.name, 0o600)
        try:
            os.link(draft.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft.name)
        return path.read_text().strip()
    except OSError:
        return _DEV_SECRET_KEY


SECRET_KEY = os.environ.get("SECRET_KEY") or _installation_secret_key(BASE_DIR / ".secret-key")
# Off unless DEBUG=1: the embedded run is the site a small club runs, with the site's own error pages.
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "allauth",
    "accounts.apps.EmailAddressesConfig",  # allauth.account, under a heading of its own in the admin
    "accounts",
    "wallet",
    "tables",
    "bots",
    "lobby",
    "stats",
    "embedded",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's language: his cookie (the header's switcher), else his browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in player's language is the one saved on his profile (accounts/language.py).
    "accounts.language.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.balance",
            ],
        },
    },
]

# The threads a daphne process runs its table sockets' database work on (tables/db_threads.py): the door's, so
# that actions at different tables overlap while each waits for PostgreSQL, and the reads of opening sockets.
SVARA_DOOR_THREADS = int(os.environ.get("SVARA_DOOR_THREADS", "4"))
# A move in a deal on the table's state as this process last saw it committed goes in one statement without the
# row's lock, falling back to the locked way when the table moved on (tables/services/optimistic.py). Off: every
# action takes the lock (what docs/benchmarks.md compares it with).
SVARA_UNLOCKED_MOVES = env_bool("SVARA_UNLOCKED_MOVES", True)
SVARA_READ_THREADS = int(os.environ.get("SVARA_READ_THREADS", "2"))
# The connections each event loop keeps of its own for those moves' one statement, awaited on the loop with no hop
# to a door thread (tables/loop_db.py); when all are busy a move goes the door threads' way. Two were busy for about
# half the moves at 50 busy tables; six served 4-28 % more actions a second there (docs/benchmarks.md, session 24).
SVARA_LOOP_CONNECTIONS = int(os.environ.get("SVARA_LOOP_CONNECTIONS", "6"))

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer at a time is enough for the single-process embedded default; wait rather than fail.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
else:
    # A table action commits without waiting for its WAL to reach the disk (one fsync, ~2-7 ms here, was most of
    # an action). A PostgreSQL crash (not an app crash) may then lose the last fraction of a second of actions,
    # each whole, state and chips together: nothing is ever half-written. Staff credits and debits commit durably
    # (wallet/services.py). DB_SYNCHRONOUS_COMMIT=on makes every commit wait.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["options"] = f"-c synchronous_commit={os.environ.get('DB_SYNCHRONOUS_COMMIT', 'off')}"
    if env_bool("DB_PREPARED", True):
        # Parameters bound by the server and a statement prepared on its second run on a connection
        # (DB_PREPARE_THRESHOLD: the runs before): no quoting in Python and no parsing in PostgreSQL for the door's
        # few statements, run on every action (bench door: 2-6 % more actions a second, docs/benchmarks.md).
        # PostgreSQL plans them as it likes (plan_cache_mode auto: the first five runs with their values, then a
        # generic plan when it costs no more), which spares planning most statements, the foreign-key checks at
        # commit included: half its time per action when every run was planned. The one statement whose generic
        # plan went bad as its table grew, the ledger's insert with its key probe, runs unprepared (wallet/batch.py).
        options["server_side_binding"] = True
        options["prepare_threshold"] = int(os.environ.get("DB_PREPARE_THRESHOLD", "1"))
    if env_bool("DB_POOL", True):
        # psycopg 3's pool (Django 5.1+): without it every `database_sync_to_async` call opened a new
        # connection (about 7 ms here). A daphne process runs the door on SVARA_DOOR_THREADS threads and the reads
        # of opening sockets on SVARA_READ_THREADS (tables/db_threads.py), each keeping a connection (a minute at
        # most), its clock watcher on one of its own and its other database work on asgiref's one thread-sensitive
        # thread, which gives its connection back after every call; a Celery worker process on its one.
        # DB_POOL_MAX_SIZE bounds each process's connections (processes × max ≤ PostgreSQL's max_connections); a
        # pool too small for the threads would leave the clock watcher and asgiref's thread waiting for its
        # timeout, so it is refused. CONN_MAX_AGE must stay 0 with a pool.
        pool_max = int(os.environ.get("DB_POOL_MAX_SIZE", "10"))
        pool_needed = SVARA_DOOR_THREADS + SVARA_READ_THREADS + 2
        if pool_max < pool_needed:
            raise ImproperlyConfigured(
                f"DB_POOL_MAX_SIZE is {pool_max}: it must be at least SVARA_DOOR_THREADS + SVARA_READ_THREADS + 2 "
                f"({pool_needed}), one connection for each thread a daphne process keeps one on, its clock watcher "
                "and asgiref's thread"
            )
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "1")),
            "max_size": pool_max,
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# English, Russian and Bulgarian (docs/translations.md). The catalogues are in locale/; the set-up commands
# compile them (make.py, accounts/management/commands/compile_translations.py).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский"), ("bg", "Български")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # a visitor's choice is remembered for a year
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The embedded run serves the static files with WhiteNoise straight from the project's and apps' folders, with
# DEBUG on or off and no collectstatic; production collects them into STATIC_ROOT with hashed names instead.
WHITENOISE_USE_FINDERS = True

# --- accounts (django-allauth) ---
SITE_ID = 1
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
LOGIN_URL = "account_login"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Svara] "
# Following the link from the sign-up e-mail (in the browser that signed up) logs the player in, to the lobby.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_CONFIRMATION_AUTHENTICATED_REDIRECT_URL = "/"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# A taken e-mail gets a plain "already registered" error at sign-up rather than a silent e-mail to its owner.
ACCOUNT_PREVENT_ENUMERATION = False

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Svara <noreply@svara.local>")
if os.environ.get("EMAIL_HOST") and "EMAIL_BACKEND" not in os.environ:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"

# --- live tables: Channels ---
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Redis pub/sub: a group message is published once and reaches each daphne process once, however many of
    # its sockets watch that table; each process hands it to its own consumers (docs/architecture.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- shared cache: allauth's rate limits ---
# With Redis, every process counts in one place: N daphne processes allow the limit once, not N times, and a
# restart does not reset it. Without it (the one-process embedded run) local memory is that one place.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "svara",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The proxies whose X-Forwarded-For names the client (config/client_address.py): comma-separated addresses or
# networks, e.g. "127.0.0.1,10.0.0.0/8". Empty: the header is ignored and the peer's address is the client's.
SVARA_TRUSTED_PROXIES = networks(os.environ.get("SVARA_TRUSTED_PROXIES", ""))

# --- Celery: clocks, presence, sweeper ---
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = False
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# A task sent from a web process (a bot's move, from the bots' own thread after commit: bots/receivers.py) retries
# once at once, which is enough for a pooled connection Redis dropped on a restart; when Redis is down it fails in
# milliseconds (Celery's default policy spent 0.6-0.75 s a message retrying, then on the door's thread). A lost bot
# move times out like anyone's (bots/receivers.py logs it).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0, "interval_max": 0}
# A Redis that stops answering (hung, not down: its port still takes connections) holds a command this long, then
# fails it. redis-py's own default, which the channel layer and the cache keep; kombu sets none, so a bot's move
# sent to a hung broker held its caller for ever. Above kombu's 1 s BRPOP, which the worker's reads wait out.
REDIS_SOCKET_TIMEOUT = 5.0
# A lost ETA task comes back only after `visibility_timeout` (Redis caveat); the sweeper covers the gap.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300, "socket_timeout": REDIS_SOCKET_TIMEOUT,
                                   "socket_connect_timeout": REDIS_SOCKET_TIMEOUT}  # fmt: skip
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-clocks": {"task": "tables.tasks.sweep_overdue_clocks", "schedule": timedelta(seconds=1)},
    "stand-up-offline-players": {"task": "tables.tasks.stand_up_offline_players", "schedule": timedelta(seconds=5)},
    "prune-replies": {"task": "tables.tasks.prune_replies", "schedule": timedelta(seconds=60)},
    "close-idle-tables": {"task": "lobby.tasks.close_idle_tables", "schedule": timedelta(seconds=60)},
    "keep-bot-tables": {"task": "bots.tasks.keep_bot_tables", "schedule": timedelta(seconds=10)},
    "tally-ended-deals": {"task": "stats.tasks.tally_ended_deals", "schedule": timedelta(seconds=5)},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # One handler for daphne's access lines: through the root logger as well, each line came out twice.
        "django.channels.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # Beat and the worker announce every sweep at INFO; keep the console readable.
        "celery": {"level": os.environ.get("SVARA_CELERY_LOG_LEVEL", "WARNING")},
    },
}

# --- tables: clocks and presence ---
# How often each daphne process looks for overdue clocks and runs them out (tables/clock_watch.py); 0: never
# (beat's sweeper still does, every second).
SVARA_CLOCK_WATCH_SECONDS = float(os.environ.get("SVARA_CLOCK_WATCH_SECONDS", "0.25"))
# Multiplies every game clock (RULES §9); tests of real timeouts set it below 1 to run fast.
SVARA_CLOCK_SCALE = float(os.environ.get("SVARA_CLOCK_SCALE", "1.0"))
# A player with no connection this long stands up (RULES §9); an empty table closes after SVARA_IDLE_TABLE_SECONDS.
SVARA_OFFLINE_SECONDS = float(os.environ.get("SVARA_OFFLINE_SECONDS", OFFLINE_SECONDS))
SVARA_IDLE_TABLE_SECONDS = float(os.environ.get("SVARA_IDLE_TABLE_SECONDS", "600"))
# How many open tables a player (not staff, not a bot) may have of his own creating at once.
SVARA_OPEN_TABLES_PER_PLAYER = int(os.environ.get("SVARA_OPEN_TABLES_PER_PLAYER", "3"))
# Who shuffles for the door: None is the engine's own (`secrets`); the test settings install fixed decks
# (tables/services/test_decks.py). Never reachable from a client message.
SVARA_DECK_PROVIDER = None
# A new player's starting chips (a ledger transfer from the treasury when the account is made; 0: none, then staff
# credit them): 2,000 seats him at a table of ante 10 for 20 to 100 antes with some to spare.
# The leaderboard lists people with at least this many deals of the family in its period (stats/standings.py).
SVARA_LEADERBOARD_MIN_DEALS = int(os.environ.get("SVARA_LEADERBOARD_MIN_DEALS", "20"))
SVARA_WELCOME_CHIPS = int(os.environ.get("SVARA_WELCOME_CHIPS", "2000"))
# How long the answer to a message id is kept for a resend (after a reconnect); beat prunes older ones.
SVARA_REPLY_SECONDS = float(os.environ.get("SVARA_REPLY_SECONDS", "900"))
