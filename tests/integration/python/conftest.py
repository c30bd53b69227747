"""Fixtures shared by the end-to-end tests (see sibyl_process.py)."""

from __future__ import annotations

import logging
from typing import Iterator

import pytest

from sibyl_process import SHARED_CLUSTER_NAME, SHARED_NUM_TOKENS, SibylServer, running_server


@pytest.fixture(scope="session")
def sibyl() -> Iterator[SibylServer]:
    with running_server(["--num-tokens", str(SHARED_NUM_TOKENS),
                         "--cluster-name", SHARED_CLUSTER_NAME]) as server:
        yield server


class RecordingHandler(logging.Handler):
    """Keeps the log records at or above its level."""

    def __init__(self, level: int):
        super().__init__(level)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def messages(self) -> list[str]:
        return [f"{r.levelname} {r.name}: {r.getMessage()}" for r in self.records]


@pytest.fixture
def driver_log() -> Iterator[RecordingHandler]:
    """Records what the driver's 'cassandra' logger says at WARNING and above."""
    handler = RecordingHandler(logging.WARNING)
    logger = logging.getLogger("cassandra")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
