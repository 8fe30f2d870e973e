"""Drills: the platform's promises tested under faults and hostile input (docs/reliability.md)."""
