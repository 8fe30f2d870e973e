"""Benchmarks: `python -m bench [points|deals|bots] [options]`. Each prints its figures, a baseline measured in the
same process and the ratio between them, then one JSON line for machines."""
