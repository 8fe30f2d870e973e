from tests.tables.conftest import bulgarian_table, classic_table, players, staff  # noqa: F401 - the same fixtures
