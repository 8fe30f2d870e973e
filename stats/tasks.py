from celery import shared_task

from .tally import tally_deals


@shared_task(ignore_result=True)
def tally_ended_deals() -> int:
    """Beat, every few seconds: the statistics and the leaderboard follow the deals within that."""
    return tally_deals()
