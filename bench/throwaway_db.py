"""A test database created for one benchmark run and dropped after it (SQLite by default, PostgreSQL with
DATABASE_URL), so a benchmark never writes to the platform's own data."""

import os
from contextlib import contextmanager


@contextmanager
def throwaway_database():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
