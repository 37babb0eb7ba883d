"""
Tests of the Python client. The first class runs against small local HTTP servers (retries, Retry-After, keys); the
second against a real service and agent, named by GSM_URL, GSM_TOKEN, GSM_CLUSTER_ID and GSM_SERVER_ID (the
repository's test/clients/languages.test.ts starts them and runs this file; it fails when anything is skipped).
"""

import json
import os
import socket
import threading
import time
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple

from gsm_client import ApiError, GsmClient, Job, Server

Answer = Tuple[int, Dict[str, str], Any]


class Stub:
    """An HTTP server answering as ``answer(path, count)`` says (None: drop the connection), recording each request."""

    def __init__(self, answer: Callable[[str, int], Optional[Answer]]) -> None:
        self.requests: List[Dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def handle_one(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                stub.requests.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "key": self.headers.get("Idempotency-Key"),
                        "last_event_id": self.headers.get("Last-Event-ID"),
                        "at": time.monotonic(),
                    }
                )
                reply = answer(self.path, len(stub.requests))
                if reply is None:
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                status, headers, body = reply
                raw = body if isinstance(body, bytes) else b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", "Content-Length": str(len(raw)), **headers}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PATCH = do_DELETE = handle_one

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class RetryTest(unittest.TestCase):
    def test_429_waits_retry_after_and_a_retried_post_keeps_its_key(self) -> None:
        too_many = (429, {"Retry-After": "1"}, {"statusCode": 429, "message": "Too Many Requests", "error": "Too Many Requests"})
        stub = Stub(lambda path, count: too_many if count == 1 else (202, {}, {"id": "j1"}))
        self.addCleanup(stub.close)
        answer = GsmClient(stub.url, "gsm_live_x").post("/api/v1/servers/s/restart")
        self.assertEqual(answer, {"id": "j1"})
        self.assertEqual(len(stub.requests), 2)
        self.assertGreaterEqual(stub.requests[1]["at"] - stub.requests[0]["at"], 0.95, "waited the second Retry-After asked for")
        self.assertTrue(stub.requests[0]["key"])
        self.assertEqual(stub.requests[1]["key"], stub.requests[0]["key"], "the same Idempotency-Key both times")

    def test_network_errors_and_503_are_retried_500_and_400_are_not(self) -> None:
        def answer(path: str, count: int) -> Optional[Answer]:
            if path.startswith("/flaky"):
                return None if count == 1 else (503, {"Retry-After": "0"}, None) if count == 2 else (200, {}, {"ok": True})
            status = 400 if path.startswith("/bad") else 500
            return (status, {}, {"statusCode": status, "message": "Validation failed", "error": "Bad Request"})

        stub = Stub(answer)
        self.addCleanup(stub.close)
        client = GsmClient(stub.url, backoff=0.01)
        self.assertEqual(client.get("/flaky"), {"ok": True})
        self.assertEqual(len(stub.requests), 3)
        with self.assertRaises(ApiError) as broken:
            client.get("/broken")
        self.assertEqual(broken.exception.status_code, 500)
        self.assertEqual(len(stub.requests), 4, "a 500 is not retried")
        with self.assertRaises(ApiError) as bad:
            client.post("/bad", {})
        self.assertEqual((bad.exception.status_code, bad.exception.message), (400, "Validation failed"))
        self.assertEqual(len(stub.requests), 5)

    def test_a_sign_in_post_is_not_repeated_and_carries_no_key(self) -> None:
        stub = Stub(lambda path, count: None)
        self.addCleanup(stub.close)
        with self.assertRaises(Exception):
            GsmClient(stub.url, backoff=0.01).post("/api/v1/auth/refresh", {"refreshToken": "x"})
        self.assertEqual(len(stub.requests), 1, "a repeated refresh would spend its token twice")
        self.assertIsNone(stub.requests[0]["key"])

    def test_events_retry_a_503_and_resume_from_the_first_id_line(self) -> None:
        event = b'{"id":"0000000000000008","type":"machine.status","clusterId":"c","at":"2026-01-01T00:00:00.000Z","data":{}}'
        sse = {"Content-Type": "text/event-stream"}

        def answer(path: str, count: int) -> Optional[Answer]:
            if count == 1:
                return (503, {"Retry-After": "0"}, None)  # a passing outage
            if count == 2:
                return (200, sse, b": connected\n\nid: 0000000000000007\n\n")  # cut before any event
            # resumed after 7: the event that came meanwhile, then a block cut off half-way
            return (200, sse, b"id: 0000000000000008\nevent: machine.status\ndata: " + event + b'\n\nid: 0000000000000009\ndata: {"id":')

        stub = Stub(answer)
        self.addCleanup(stub.close)
        got = []
        for received in GsmClient(stub.url, backoff=0.01).events("c"):
            got.append(received["id"])
            if len(got) == 2:
                break
        self.assertEqual(got, ["0000000000000008", "0000000000000008"])
        self.assertEqual([request["last_event_id"] for request in stub.requests[:4]], [None, None, "0000000000000007", "0000000000000008"])

    def test_a_patch_without_a_key_is_not_repeated_after_a_network_error(self) -> None:
        stub = Stub(lambda path, count: None)
        self.addCleanup(stub.close)
        with self.assertRaises(Exception):
            GsmClient(stub.url, backoff=0.01).patch("/api/v1/servers/s", {"name": "x"})
        self.assertEqual(len(stub.requests), 1)


class Proxy:
    """A TCP proxy to the service that can be taken down (every connection cut, none accepted) and up again."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = 0
        self.sockets: List[socket.socket] = []
        self.listener: Optional[socket.socket] = None
        self.up()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        if self.listener:
            self.listener.close()
            self.listener = None
        for open_socket in self.sockets:
            try:
                open_socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            open_socket.close()
        self.sockets = []

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                chunk = source.recv(65536)
                if not chunk:
                    break
                sink.sendall(chunk)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


SERVICE = {name: os.environ.get(name, "") for name in ("GSM_URL", "GSM_TOKEN", "GSM_CLUSTER_ID", "GSM_SERVER_ID")}


@unittest.skipUnless(all(SERVICE.values()), "needs a service: GSM_URL, GSM_TOKEN, GSM_CLUSTER_ID, GSM_SERVER_ID")
class ServiceTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = GsmClient(SERVICE["GSM_URL"], SERVICE["GSM_TOKEN"])
        self.server_id = SERVICE["GSM_SERVER_ID"]
        self.cluster_id = SERVICE["GSM_CLUSTER_ID"]

    def test_restart_and_wait(self) -> None:
        gsm = self.client
        job: Job = gsm.post("/api/v1/servers/%s/restart" % self.server_id)
        done = gsm.wait_for_job(job["id"])
        self.assertEqual(done["status"], "SUCCEEDED", done.get("error"))
        server: Server = gsm.get("/api/v1/servers/%s" % self.server_id)
        self.assertEqual(server["status"], "ONLINE")

    def test_pagination_and_errors(self) -> None:
        listed = list(self.client.paginate("/api/v1/clusters/%s/servers" % self.cluster_id, {"limit": 1}))
        total = self.client.get("/api/v1/clusters/%s/servers" % self.cluster_id)["meta"]["total"]
        self.assertEqual(len(listed), total)
        self.assertEqual(len({server["id"] for server in listed}), total)
        self.assertIn(self.server_id, {server["id"] for server in listed})
        with self.assertRaises(ApiError) as missing:
            self.client.get("/api/v1/servers/00000000-0000-7000-8000-000000000000")
        self.assertEqual((missing.exception.status_code, missing.exception.message, missing.exception.error), (404, "Server not found", "Not Found"))
        with self.assertRaises(ApiError) as invalid:
            self.client.post("/api/v1/clusters/%s/servers" % self.cluster_id, {"name": ""})
        self.assertEqual(invalid.exception.status_code, 400)
        self.assertIn("name", [detail["field"] for detail in invalid.exception.details or []])

    def test_a_post_repeated_with_its_key_makes_one_job(self) -> None:
        key = "python-%s" % uuid.uuid4()
        first = self.client.post("/api/v1/servers/%s/start" % self.server_id, idempotency_key=key)
        again = self.client.post("/api/v1/servers/%s/start" % self.server_id, idempotency_key=key)
        self.assertEqual(again["id"], first["id"])
        self.client.wait_for_job(first["id"])

    def test_the_event_stream_resumes_after_a_cut_connection(self) -> None:
        gsm = self.client
        events_path = "/api/v1/clusters/%s/events" % self.cluster_id
        query = {"type": "server.status", "serverId": self.server_id}
        before = list(gsm.paginate(events_path, query))
        marker = before[-1]["id"] if before else None
        proxy = Proxy(int(SERVICE["GSM_URL"].rsplit(":", 1)[1].split("/")[0]))
        self.addCleanup(proxy.down)
        through_proxy = GsmClient("http://127.0.0.1:%d" % proxy.port, SERVICE["GSM_TOKEN"], backoff=0.1)
        seen: List[Dict[str, Any]] = []

        def read() -> None:
            for event in through_proxy.events(self.cluster_id, after=marker, types=["server.status"], server_id=self.server_id):
                seen.append(event)

        threading.Thread(target=read, daemon=True).start()
        self.assertEqual(gsm.wait_for_job(gsm.post("/api/v1/servers/%s/stop" % self.server_id)["id"])["status"], "SUCCEEDED")
        proxy.down()  # the connection is cut; events happen meanwhile
        self.assertEqual(gsm.wait_for_job(gsm.post("/api/v1/servers/%s/start" % self.server_id)["id"])["status"], "SUCCEEDED")
        proxy.up()
        expected = [event["id"] for event in gsm.paginate(events_path, dict(query, **({"after": marker} if marker else {})))]
        self.assertGreaterEqual(len(expected), 4, "STOPPING, OFFLINE, STARTING, ONLINE at least")
        deadline = time.monotonic() + 20
        while len(seen) < len(expected) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # anything repeated would arrive now
        self.assertEqual([event["id"] for event in seen], expected, "every event once, in order")
        self.assertEqual([event["data"]["status"] for event in seen][-1], "ONLINE")


if __name__ == "__main__":
    unittest.main()
