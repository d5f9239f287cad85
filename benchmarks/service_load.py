"""Load test of the REST service on loopback: a bounded number of requests with fixed concurrency.

Usage: python benchmarks/service_load.py [--requests 400] [--concurrency 8] [--note-bytes 2048]
                                         [--workers 2] [--isolation process|thread] [--dp]
                                         [--probe-timeout SECONDS] [--url http://127.0.0.1:PORT] [--json OUT]

Without ``--url`` the script starts ``python -m anonymed.service`` (English only, ``--isolation`` as given)
on a free loopback port and stops it at the end. Every request is POST /deid (detect-and-replace) of the same
synthetic ~2 KB note built from the bundled sample notes. Reports p50/p90/p99/max latency, throughput and
errors (any non-200 or transport error); for a server started here also the CPU time the server and its
workers spent per request (less sensitive to other load on the machine than latency) and their memory
after the load (RSS, and PSS: shared pages split between sharers; psutil, from the ``bench`` extra).
Only loopback addresses are accepted: this is not a tool to load someone else's server.

``--probe-timeout T`` starts the server with ``--timeout T`` and, after the load, sends one ~1 MB note of
the slowest input known (``"1 " * n``, about 40 CPU seconds; see fuzz/worst_case.py): it reports the status,
the seconds until the answer, until every worker is ready again, and the CPU seconds the server and its
workers spend in the 10 s after the answer (a killed worker leaves only its replacement's start; a thread
keeps working).
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "anonymed" / "resources" / "sample" / "notes.jsonl"


def make_note(size: int) -> str:
    """About ``size`` bytes of English clinical text (the sample notes, repeated, cut at a space)."""
    texts = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    base = "\n".join(t["text"] for t in texts if t.get("lang", "en") == "en")
    note = base
    while len(note.encode()) < size:
        note += "\n" + base
    cut = note.encode()[:size].decode("utf-8", "ignore")
    return cut[: cut.rfind(" ")] if " " in cut else cut


def check_loopback(url: str) -> None:
    """Refuse any target that is not on this machine."""
    host = urlsplit(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise SystemExit(f"refusing to load {host!r}: only loopback addresses are allowed")


def free_port() -> int:
    """A currently free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(workers: int, isolation: str, timeout: float) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m anonymed.service`` on a free loopback port; returns the process and its URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "anonymed.service", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--lang", "en", "--workers", str(workers), "--isolation", isolation, "--log-level", "warning"]
    cmd += ["--timeout", str(timeout)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANONYMED_API_KEY")}
    return subprocess.Popen(cmd, env=env), f"http://127.0.0.1:{port}"


def wait_ready(url: str, timeout: float = 120.0) -> None:
    """Poll /health until the models are loaded."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=2, trust_env=False).json().get("ready"):
                return
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.25)
    raise SystemExit(f"the server at {url} was not ready after {timeout:.0f} s")


def memory_mb(pid: int) -> dict[str, float]:
    """RSS of the server, and RSS and PSS (shared pages split between sharers) of it and its descendants."""
    import psutil

    server = psutil.Process(pid)
    family = [server, *server.children(recursive=True)]
    infos = [p.memory_full_info() for p in family]
    return {
        "processes": len(family),
        "server_rss_mb": round(infos[0].rss / 2**20, 1),
        "total_rss_mb": round(sum(i.rss for i in infos) / 2**20, 1),
        "total_pss_mb": round(sum(getattr(i, "pss", i.rss) for i in infos) / 2**20, 1),
    }


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process and its living descendants."""
    import psutil

    total = 0.0
    server = psutil.Process(pid)
    for process in [server, *server.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def probe_timeout(url: str, pid: int, window: float = 10.0) -> dict[str, Any]:
    """One ~1 MB note of the slowest input past the server's timeout, then the CPU it burns afterwards."""
    text = "1 " * 495_000
    started = time.perf_counter()
    response = httpx.post(f"{url}/deid", json={"text": text}, timeout=300, trust_env=False)
    answered = time.perf_counter()
    before = cpu_seconds(pid)
    ready = None  # seconds until every worker is ready again (a killed one replaced)
    while time.perf_counter() - answered < window:
        health = httpx.get(f"{url}/health", timeout=5, trust_env=False).json()
        if ready is None and health.get("workers_ready") == health.get("workers"):
            ready = round(time.perf_counter() - answered, 2)
        time.sleep(0.02 if ready is None else 0.5)
    return {
        "status": response.status_code,
        "seconds_to_answer": round(answered - started, 2),
        "all_workers_ready_after_seconds": ready,
        "cpu_seconds_after_answer": round(cpu_seconds(pid) - before, 2),
        "window_seconds": window,
    }


async def run_load(url: str, body: dict[str, Any], total: int, concurrency: int) -> dict[str, Any]:
    """Send ``total`` requests with ``concurrency`` in flight; latencies in milliseconds."""
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    remaining = total
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30, trust_env=False) as client:
        for _ in range(concurrency):  # warm the connections (not counted)
            await client.post("/deid", json=body)

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                started = time.perf_counter()
                try:
                    response = await client.post("/deid", json=body)
                    if response.status_code != 200:
                        errors[str(response.status_code)] += 1
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] += 1
                latencies.append((time.perf_counter() - started) * 1000)

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "requests": len(latencies),
        "concurrency": concurrency,
        "errors": sum(errors.values()),
        "errors_by_kind": dict(errors),
        "p50_ms": round(cuts[49], 1),
        "p90_ms": round(cuts[89], 1),
        "p99_ms": round(cuts[98], 1),
        "max_ms": round(max(latencies), 1),
        "throughput_rps": round(len(latencies) / elapsed, 1),
        "seconds": round(elapsed, 2),
    }


def main() -> None:
    """Parse options, start (or target) the server, run the load, print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--note-bytes", type=int, default=2048)
    parser.add_argument("--workers", type=int, default=2, help="server workers (when started here)")
    parser.add_argument("--isolation", choices=("process", "thread"), default="process", help="server mode")
    parser.add_argument("--dp", action="store_true", help="DP operators for dates, ages, places (epsilon 1)")
    parser.add_argument("--probe-timeout", type=float, help="server timeout; then one pathological note")
    parser.add_argument("--url", help="an already running server on loopback")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    note = make_note(args.note_bytes)
    body: dict[str, Any] = {"text": note, "method": "replace"}
    if args.dp:
        body |= {"operators": {"DATE": "dp_date", "AGE": "dp_age", "LOCATION": "dp_location"}, "epsilon": 1}
    process = None
    url = args.url
    if url is None:
        process, url = start_server(args.workers, args.isolation, args.probe_timeout or 10.0)
    check_loopback(url)
    try:
        wait_ready(url)
        cpu = cpu_seconds(process.pid) if process is not None else 0.0
        figures = asyncio.run(run_load(url, body, args.requests, args.concurrency))
        if process is not None:  # CPU per request (warm-up included) depends less on other load than latency
            cpu = cpu_seconds(process.pid) - cpu
            figures["server_cpu_ms_per_request"] = round(cpu * 1000 / (args.requests + args.concurrency), 1)
            figures["memory"] = memory_mb(process.pid)
        if process is not None and args.probe_timeout is not None:
            figures["timeout_probe"] = probe_timeout(url, process.pid)
    finally:
        if process is not None:
            process.terminate()
            process.wait(10)
    figures |= {"note_bytes": len(note.encode()), "dp": args.dp, "server_workers": args.workers}
    if process is not None:
        figures["isolation"] = args.isolation
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
