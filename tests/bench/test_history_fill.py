"""The history benchmark's fill writes every column a deal's rows must hold (bench/history.py): it once failed on
PostgreSQL's NOT NULLs after private tables and fair deals added columns, and nothing ran it. Here a small fill is
read back through the pages the benchmark times, for the player it times them for."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from bench.history import fill
from tables.models import Deal, DealSeat


@pytest.mark.django_db(transaction=True)  # the fill commits, as COPY into a real database does
def test_the_history_bench_fill_makes_deals_the_pages_serve():
    if connection.vendor != "postgresql":
        pytest.skip("the fill uses PostgreSQL's COPY")
    regular = fill(400, 12, seed=3)
    assert Deal.objects.count() == 400
    mine = DealSeat.objects.filter(user_id=regular)
    assert mine.exists()
    client = Client()
    client.force_login(get_user_model().objects.get(pk=regular))
    deal = mine.values_list("deal_id", flat=True).first()
    assert client.get("/history/").status_code == 200
    assert client.get("/history/?family=bulgarian").status_code == 200
    assert client.get(f"/history/{deal}/").status_code == 200
    text = client.get(f"/history/{deal}.txt").content.decode()
    assert Deal.objects.get(pk=deal).commitment in text  # the fairness record of a real one's shape is served
