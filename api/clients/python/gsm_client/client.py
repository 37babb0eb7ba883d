"""The Python client of the game server manager's REST API: the standard library only, Python 3.9+.

- ``request(method, path, ...)``: one call; errors are ``ApiError`` with the API's statusCode, message, error, details.
- Retries: 429 waits what ``Retry-After`` says (at most ``max_retry_wait`` seconds); network errors and 502/503/504 are
  retried with a back-off for requests that are safe to repeat: GET, DELETE, and POST, which always carries an
  ``Idempotency-Key`` (made here unless given) so that a repeated POST is answered as the first.
- ``wait_for_job(id)``: long-polls ``GET /jobs/<id>?wait=N`` until the job has ended.
- ``paginate(path, query)``: every record of a list, page after page.
- ``events(cluster_id, after=..., types=..., server_id=...)``: the cluster's event stream (Server-Sent Events) as an
  iterator that reconnects by itself and resumes after the last event it yielded, so none is missed or repeated.
"""

import http.client
import json
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, Union, cast

from .types import Event, Job

__all__ = ["ApiError", "GsmClient", "FINISHED_JOB_STATUSES"]

FINISHED_JOB_STATUSES = frozenset(["SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"])
_RETRYABLE_STATUS = frozenset([502, 503, 504])
# Sign-in routes: the service keeps no Idempotency-Key for them (there is no principal yet).
_SIGN_IN = re.compile(r"^/(api/v1/)?auth/")
# The longest pause between two connections of an event stream.
_MAX_STREAM_BACKOFF = 30.0
_NETWORK_ERRORS = (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout, TimeoutError)

Query = Mapping[str, Union[str, int, float, bool, None]]


class ApiError(Exception):
    """An answer of 400 or more: the API's error record, as fields."""

    def __init__(self, status_code: int, body: Any) -> None:
        record = body if isinstance(body, dict) else {}
        self.status_code: int = status_code
        self.message: str = str(record.get("message") or "HTTP %d" % status_code)
        self.error: str = str(record.get("error") or "")
        self.details: Optional[List[Dict[str, str]]] = record.get("details")
        self.body: Any = body
        super().__init__(self.message)

    def __repr__(self) -> str:
        return "ApiError(%d, %r)" % (self.status_code, self.message)


def path_of(template: str, **params: str) -> str:
    """Fills the ``{name}`` placeholders of a document path, encoded."""
    out = template
    for name, value in params.items():
        out = out.replace("{%s}" % name, urllib.parse.quote(str(value), safe=""))
    if "{" in out:
        raise ValueError("missing path parameter in %s" % out)
    return out


def _retry_after(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` in seconds (seconds or an HTTP date), or None."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        from email.utils import parsedate_to_datetime

        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _query_value(value: Union[str, int, float, bool]) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


class GsmClient:
    """A client of one service. ``token``: a user API token (``gsm_live_...``) or a session access token."""

    def __init__(
        self,
        base_url: str,
        token: Optional[str] = None,
        *,
        retries: int = 4,
        max_retry_wait: float = 60.0,
        backoff: float = 0.5,
        timeout: float = 90.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.retries = retries
        self.max_retry_wait = max_retry_wait
        self.backoff = backoff
        self.timeout = timeout
        self._sleep = sleep

    # ------------------------------------------------------------------------------------------------------ calls

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """One call, retried where that is safe; answers the parsed JSON body (None for an empty answer)."""
        method = method.upper()
        url = self.base_url + path
        if query:
            pairs = [(name, _query_value(value)) for name, value in query.items() if value is not None]
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        # A POST carries a key: repeating it after a lost answer then cannot make a second job. Sign-in routes
        # (/auth/...) keep no keys: repeating one could spend a refresh token twice, so they are never repeated.
        keyed = method == "POST" and not _SIGN_IN.match(path)
        if idempotency_key is None and keyed:
            idempotency_key = str(uuid.uuid4())
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        safe = method in ("GET", "DELETE") or keyed  # a keyed POST always has its key
        backoff = self.backoff
        attempt = 0
        while True:
            try:
                with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers, method=method), timeout=self.timeout) as answer:
                    return _parse(answer.read())
            except urllib.error.HTTPError as failure:
                status = failure.code
                retry_after = _retry_after(failure.headers.get("Retry-After"))
                parsed = _error_body(failure)
                if attempt < self.retries:
                    if status == 429:
                        wait = backoff if retry_after is None else retry_after
                        if wait <= self.max_retry_wait:
                            self._sleep(wait)
                            backoff *= 2
                            attempt += 1
                            continue
                    elif safe and status in _RETRYABLE_STATUS:
                        self._sleep(backoff if retry_after is None else min(retry_after, self.max_retry_wait))
                        backoff *= 2
                        attempt += 1
                        continue
                raise ApiError(status, parsed) from None
            except _NETWORK_ERRORS:
                if not safe or attempt >= self.retries:
                    raise
                self._sleep(backoff)
                backoff *= 2
                attempt += 1

    def get(self, path: str, query: Optional[Query] = None) -> Any:
        return self.request("GET", path, query=query)

    def post(self, path: str, body: Any = None, *, query: Optional[Query] = None, idempotency_key: Optional[str] = None) -> Any:
        return self.request("POST", path, query=query, body={} if body is None else body, idempotency_key=idempotency_key)

    def patch(self, path: str, body: Any) -> Any:
        return self.request("PATCH", path, body=body)

    def delete(self, path: str) -> Any:
        return self.request("DELETE", path)

    # ---------------------------------------------------------------------------------------------------- helpers

    def wait_for_job(self, job_id: str, timeout: float = 600.0) -> Job:
        """
        Waits until the job has ended and answers it: long polls of at most 60 s each, and never longer than this
        client's own read ``timeout`` allows (a poll the client itself would cut off is no poll).
        """
        deadline = time.monotonic() + timeout
        poll_cap = max(1, min(60, int(self.timeout) - 5))
        while True:
            left = int(deadline - time.monotonic() + 0.999)
            job = cast(Job, self.get(path_of("/api/v1/jobs/{id}", id=job_id), {"wait": max(0, min(poll_cap, left))}))
            if job["status"] in FINISHED_JOB_STATUSES:
                return job
            if time.monotonic() >= deadline:
                raise TimeoutError("job %s is still %s" % (job_id, job["status"]))

    def paginate(self, path: str, query: Optional[Query] = None) -> Iterator[Any]:
        """Every record of a list endpoint, fetching page after page (``limit`` per page, default 100)."""
        page = 1
        while True:
            answer = self.get(path, {"limit": 100, **(query or {}), "page": page})
            yield from answer["data"]
            if page >= answer["meta"]["totalPages"] or not answer["data"]:
                return
            page += 1

    def events(
        self,
        cluster_id: str,
        *,
        after: Optional[str] = None,
        types: Optional[List[str]] = None,
        server_id: Optional[str] = None,
        read_timeout: float = 45.0,
    ) -> Iterator[Event]:
        """
        The cluster's events, live, resumed after ``after`` (an event id) and, after every lost connection, after the
        last event yielded. The stream sends a comment every 15 s, so a read that waits ``read_timeout`` has lost its
        connection and reconnects. Stop by leaving the loop (the connection is closed).
        """
        last = after
        backoff = self.backoff
        query: Dict[str, str] = {}
        if types:
            query["types"] = ",".join(types)
        if server_id:
            query["serverId"] = server_id
        url = self.base_url + path_of("/api/v1/clusters/{clusterId}/events/stream", clusterId=cluster_id)
        if query:
            url += "?" + urllib.parse.urlencode(query)
        while True:
            headers = {"Accept": "text/event-stream"}
            if self.token:
                headers["Authorization"] = "Bearer " + self.token
            if last:
                headers["Last-Event-ID"] = last
            try:
                answer = urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=read_timeout)
            except urllib.error.HTTPError as failure:
                parsed = _error_body(failure)
                if failure.code < 500 and failure.code != 429:
                    raise ApiError(failure.code, parsed) from None
                retry_after = _retry_after(failure.headers.get("Retry-After"))
                self._sleep(min(_MAX_STREAM_BACKOFF, backoff if retry_after is None else retry_after))
                backoff = min(backoff * 2, _MAX_STREAM_BACKOFF)
                continue
            except _NETWORK_ERRORS:
                self._sleep(backoff)
                backoff = min(backoff * 2, _MAX_STREAM_BACKOFF)
                continue
            received = False
            try:
                for block_id, event in _read_events(answer):
                    # The stream's `id:` lines are the resume point: its first one comes before any event, stats
                    # have none (the last id stays), and on a stream with the console every id also carries the
                    # console's sequence.
                    if block_id:
                        last = block_id
                    if event is not None:
                        received = True
                        yield event
            except _NETWORK_ERRORS + (OSError,):
                pass  # the connection broke: resume after the last event
            finally:
                answer.close()
            # A stream that ended gets a pause before the next connection, longer while streams end with nothing.
            backoff = self.backoff if received else min(backoff * 2, _MAX_STREAM_BACKOFF)
            self._sleep(min(self.backoff, 1.0) if received else backoff)


def _parse(raw: bytes) -> Any:
    return None if not raw else json.loads(raw.decode("utf-8"))


def _error_body(failure: urllib.error.HTTPError) -> Any:
    """The JSON body of an error answer (None when it is not JSON); the answer is closed."""
    try:
        return _parse(failure.read())
    except (ValueError, OSError):
        return None
    finally:
        failure.close()


def _read_events(answer: Any) -> Iterator[Tuple[Optional[str], Optional[Event]]]:
    """Parses a Server-Sent Events body: each block's ``id:`` (or None) and its event's JSON (None without data)."""
    data: List[str] = []
    block_id: Optional[str] = None
    while True:
        raw = answer.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data or block_id is not None:
                yield block_id, (cast(Event, json.loads("\n".join(data))) if data else None)
            data = []
            block_id = None
        elif line.startswith("data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(" ") else value)
        elif line.startswith("id:"):
            value = line[3:]
            block_id = value[1:] if value.startswith(" ") else value
