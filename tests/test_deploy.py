"""The production settings pass Django's deployment checks, and the embedded defaults need no server."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def backends_under(env: dict[str, str]) -> list[str]:
    """The database engine, channel layer and Celery broker that settings pick in this environment."""
    code = (
        "import django;django.setup();from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_BROKER_URL)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_check_deploy_is_clean_with_production_settings():
    # A production process never runs with the test-only async escape hatch.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="x7Rk2-production-like-secret-key-that-is-long-and-random-9fQ3zLw0pV8sY1",
        ALLOWED_HOSTS="svara.example.com",
        DEBUG="0",
    )
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.production"
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_embedded_defaults_use_sqlite_memory_layer_and_memory_broker():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    assert backends_under(env) == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
        "memory://",
    ]


def test_database_url_and_redis_url_switch_to_postgresql_and_redis():
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/svara",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert backends_under(env) == [
        "django.db.backends.postgresql",
        "config.channel_layer.RedisPubSubChannelLayer",
        "redis://127.0.0.1:6379/0",
    ]


# --- the production entry points never fall back to the debug settings ------------------------------------------

ASGI_PROBE = "import config.asgi; from django.conf import settings; print(settings.SETTINGS_MODULE, settings.DEBUG)"


def without_settings(**extra: str) -> dict[str, str]:
    """The environment of a process started from the Procfile by someone who forgot DJANGO_SETTINGS_MODULE, with
    DEBUG=1 left over from development to show it is not obeyed."""
    drop = {"DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(DEBUG="1", **extra)
    return env


def run_python(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_asgi_entry_point_without_settings_or_secret_key_refuses_to_start():
    result = run_python("-c", ASGI_PROBE, env=without_settings())
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr


def test_the_asgi_entry_point_without_settings_runs_production_with_debug_off():
    result = run_python("-c", ASGI_PROBE, env=without_settings(SECRET_KEY="k" * 50))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["config.settings.production", "False"]


def test_the_asgi_entry_point_refuses_the_public_development_secret_key():
    from config.settings.base import _DEV_SECRET_KEY

    result = run_python("-c", ASGI_PROBE, env=without_settings(SECRET_KEY=_DEV_SECRET_KEY))
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_celery_from_the_procfile_without_settings_or_secret_key_refuses_to_start():
    # `celery report` loads the app and its Django settings exactly as `celery -A config worker|beat` does.
    result = run_python("-m", "celery", "-A", "config", "report", env=without_settings())
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stdout + result.stderr
    assert "DEBUG: True" not in result.stdout


def test_celery_from_the_procfile_without_settings_runs_production_with_debug_off():
    result = run_python("-m", "celery", "-A", "config", "report", env=without_settings(SECRET_KEY="k" * 50))
    assert result.returncode == 0, result.stderr
    assert "DEBUG: False" in result.stdout
    assert "SECURE_SSL_REDIRECT: True" in result.stdout  # only the production settings set it


def test_the_procfile_release_commands_run_the_production_settings_unless_told_otherwise():
    """`manage.py` keeps the development default, so the release line must name the production settings."""
    release = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("release:"))
    assert 'DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.production}"' in release
    script = release.removeprefix("release:").split("&&")[0] + " && echo $DJANGO_SETTINGS_MODULE"
    result = subprocess.run(["sh", "-c", script], env=without_settings(), capture_output=True, text=True)
    assert result.stdout.strip() == "config.settings.production"


def test_the_embedded_run_signs_with_a_secret_of_its_own_installation_not_the_public_key(tmp_path):
    from config.settings.base import _DEV_SECRET_KEY, _installation_secret_key

    path = tmp_path / ".secret-key"
    first = _installation_secret_key(path)
    assert first != _DEV_SECRET_KEY and len(first) >= 50
    assert _installation_secret_key(path) == first  # every process of the installation reads the same one
    assert path.stat().st_mode & 0o777 == 0o600
    assert list(tmp_path.iterdir()) == [path]  # no draft left behind
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    probe = "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"
    result = run_python("-c", probe, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() != _DEV_SECRET_KEY


def test_the_asgi_entry_point_leaves_what_it_loaded_out_of_the_collectors_scans():
    """A full collection scans every tracked object with the GIL held: with Django and the apps frozen at start
    (gc.freeze), it scans only what the sockets made since (paced bench live: p99 98 -> 24 ms, docs/benchmarks.md)."""
    probe = "import gc, config.asgi; print(gc.get_freeze_count(), gc.is_tracked([]))"
    result = run_python("-c", probe, env=without_settings(SECRET_KEY="k" * 50))
    assert result.returncode == 0, result.stderr
    frozen, tracked = result.stdout.split()
    assert int(frozen) > 50_000 and tracked == "True"


def test_a_pool_too_small_for_the_threads_that_keep_connections_is_refused():
    """Each door and read thread of a daphne keeps a pooled connection (tables/db_threads.py): a smaller pool would
    leave the clock watcher and asgiref's thread waiting for its timeout, so the settings refuse it and say why."""
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.base", DATABASE_URL="postgres://u@127.0.0.1:1/x",
               SVARA_DOOR_THREADS="4", SVARA_READ_THREADS="2", DB_POOL_MAX_SIZE="7")  # fmt: skip
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "DB_POOL_MAX_SIZE is 7: it must be at least SVARA_DOOR_THREADS + SVARA_READ_THREADS + 2 (8)" in result.stderr
    env["DB_POOL_MAX_SIZE"] = "8"
    assert run_manage("check", env=env).returncode == 0


def test_the_procfile_web_processes_run_daphne_on_uvloops_event_loop():
    """`python -m config.web` (the Procfile's web lines) chooses the loop before daphne makes it on import."""
    web = [line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web")]
    assert web and all(" -m config.web " in line for line in web)
    probe = "from config import web; web.install(); import daphne.server as s; print(type(s.twisted_loop).__module__)"
    result = run_python("-c", probe, env=without_settings(SECRET_KEY="k" * 50))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["uvloop"]


def test_the_web_process_refuses_to_choose_the_loop_after_daphne_made_its_own():
    probe = "import daphne.server; from config import web; web.install()"
    result = run_python("-c", probe, env=without_settings(SECRET_KEY="k" * 50))
    assert result.returncode != 0
    assert "daphne.server was imported first" in result.stderr


def test_the_web_process_takes_daphnes_arguments_and_refuses_bad_ones():
    result = run_python("-m", "config.web", "--port", "not-a-port", "config.asgi:application",
                        env=without_settings(SECRET_KEY="k" * 50))  # fmt: skip
    assert result.returncode == 2
    assert "usage: daphne" in result.stderr and "--port" in result.stderr
