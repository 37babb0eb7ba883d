"""
The Python half of `npm run bench -- clients`: requests/s of GET <path> through the Python client (get) beside a raw
urllib loop doing the same request, LOOPS threads each, ROUNDS interleaved rounds of DURATION seconds. Prints one JSON
line: {"raw": [...], "client": [...]} (requests/s per round).
Usage: python3 python_bench.py <base-url> <token> <path> <loops> <rounds> <duration>
"""

import json
import sys
import threading
import time
import urllib.request

sys.path.insert(0, sys.argv[7] if len(sys.argv) > 7 else ".")
from gsm_client import GsmClient  # noqa: E402

base, token, path = sys.argv[1], sys.argv[2], sys.argv[3]
loops, rounds, duration = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
client = GsmClient(base, token)


def raw() -> None:
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token, "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        json.loads(answer.read())


def through_client() -> None:
    client.get(path)


def run(call, seconds: float) -> float:
    end = time.monotonic() + seconds
    counts = [0] * loops

    def loop(index: int) -> None:
        while time.monotonic() < end:
            call()
            counts[index] += 1

    threads = [threading.Thread(target=loop, args=(index,)) for index in range(loops)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds


targets = [("raw", raw), ("client", through_client)]
for _, call in targets:
    run(call, 1)  # warm-up
results = {name: [] for name, _ in targets}
for round_ in range(rounds):
    for name, call in targets if round_ % 2 == 0 else list(reversed(targets)):
        results[name].append(run(call, duration))
print(json.dumps(results))
