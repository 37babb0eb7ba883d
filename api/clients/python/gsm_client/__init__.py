"""The game server manager's REST API from Python: ``GsmClient``, ``ApiError`` and the API's records as TypedDicts."""

from .client import FINISHED_JOB_STATUSES, ApiError, GsmClient, path_of
from .types import *  # noqa: F401,F403  (the records: Job, Server, Player, Ban, Event, ...)

__all__ = ["ApiError", "GsmClient", "FINISHED_JOB_STATUSES", "path_of"]
__version__ = "0.1.0"
