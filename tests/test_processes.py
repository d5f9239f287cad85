"""Worker processes never outlive their parent: SIGKILL, SIGTERM and SIGINT of the parent while they work.

Each test starts a small run in a subprocess, waits until its workers are busy, signals the parent and
waits (at most ``WAIT`` seconds, a bound, not a timing) until every worker has ended. Linux only: processes
are read from /proc. Dask's LocalCluster (``--workers`` of the corpus commands) watches its parent itself;
docs/scale.md gives what was measured for it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from anonymed.processes import Stopped, stop_on_signals, watch_parent

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")

WAIT = 20.0  # seconds a worker may take to end after its parent: measured well under 5 s
START = 90.0  # seconds to start the workers on a loaded machine
ANONYMED = [sys.executable, "-c", "from anonymed.cli import main; main()"]


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), None if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rpartition(")")[2].split()


def ended(pid: int) -> bool:
    """Whether the process is gone (a zombie waiting for its new parent to reap it counts as gone)."""
    fields = _stat(pid)
    return fields is None or fields[0] in {"Z", "X"}


def children(pid: int) -> list[int]:
    """Every live process whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid and fields[0] not in {"Z", "X"}:
                found.append(int(entry.name))
    return found


def wait_until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def start(command: list[str], log: Path) -> subprocess.Popen[bytes]:
    """Start the parent, its output to a file: a surviving worker would hold a pipe open."""
    with log.open("wb") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


def stop(process: subprocess.Popen[bytes], sig: int, log: Path) -> tuple[int, str]:
    """Send ``sig`` to the parent and wait for it; its exit code and what it printed."""
    process.send_signal(sig)
    try:
        process.wait(timeout=WAIT + 40)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail(f"the parent did not end {WAIT + 40:.0f} s after {signal.Signals(sig).name}")
    return process.returncode, log.read_text(encoding="utf-8", errors="replace")


def assert_all_end(pids: list[int], sig: int) -> None:
    survivors: list[int] = []
    try:
        wait_until(lambda: all(ended(p) for p in pids), WAIT, "")
    except AssertionError:
        survivors = [p for p in pids if not ended(p)]
        for pid in survivors:
            os.kill(pid, signal.SIGKILL)  # leave no orphan behind the failed test
    name = signal.Signals(sig).name
    assert survivors == [], f"worker processes still alive {WAIT:.0f} s after {name} of their parent"


POOL_RUN = """
import os, sys
from pathlib import Path
from anonymed.processes import Stopped, stop_on_signals, worker_pool

def spin(folder):
    Path(folder, str(os.getpid())).touch()
    while True:
        pass

if __name__ == "__main__":
    try:
        with stop_on_signals(), worker_pool(2) as pool:
            futures = [pool.submit(spin, sys.argv[1]) for _ in range(4)]
            futures[0].result()
    except Stopped as stopped:
        print("stopped by", stopped.name, flush=True)
        sys.exit(stopped.exit_code)
"""


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGKILL, -signal.SIGKILL), (signal.SIGTERM, 143), (signal.SIGINT, 130)]
)
def test_busy_pool_workers_end_with_their_parent(tmp_path: Path, sig: int, code: int) -> None:
    script, busy = tmp_path / "run.py", tmp_path / "busy"
    script.write_text(POOL_RUN, encoding="utf-8")
    busy.mkdir()
    process = start([sys.executable, str(script), str(busy)], tmp_path / "out.txt")
    try:
        wait_until(lambda: len(list(busy.iterdir())) == 2, START, "the workers did not start their tasks")
    except AssertionError:
        process.kill()
        raise
    workers = [int(p.name) for p in busy.iterdir()]
    helpers = [p for p in children(process.pid) if p not in workers]  # the resource tracker
    returncode, out = stop(process, sig, tmp_path / "out.txt")
    assert returncode == code, out
    if sig != signal.SIGKILL:
        assert f"stopped by {signal.Signals(sig).name}" in out
    assert_all_end(workers + helpers, sig)


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The quick audit benchmark, its removal copy only."""
    folder = tmp_path_factory.mktemp("audit") / "bench"
    options = ["--quick", "-o", str(folder), "--protections", "removal", "--no-progress"]
    subprocess.run([*ANONYMED, "audit", "make-benchmark", *options], check=True, capture_output=True)
    return folder


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_audit_grid_workers_end_with_the_command(bench: Path, tmp_path: Path, sig: int) -> None:
    # fastText on 8 windows: minutes of training for 2 worker processes, far more than the test waits
    windows = "1,3,5,7,9,11,13,15"
    command = [*ANONYMED, "audit", "benchmark", "--bench", str(bench), "--workers", "2", "--no-progress"]
    command += ["--algorithms", "fasttext", "--windows", windows, "-o", str(tmp_path / "report.md")]
    process = start(command, tmp_path / "out.txt")

    def workers() -> list[int]:
        found = []
        for pid in children(process.pid):
            try:
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.append(pid)
            except FileNotFoundError:
                pass
        return found

    def training(pid: int) -> bool:  # gensim's fastText training code is loaded: a job has started
        try:
            return b"fasttext_inner" in Path(f"/proc/{pid}/maps").read_bytes()
        except FileNotFoundError:
            return False

    try:
        wait_until(lambda: len(workers()) == 2, START, "the grid's workers did not start")
        wait_until(lambda: all(training(p) for p in workers()), START, "the workers did not start training")
    except AssertionError:
        process.kill()
        raise
    everything = children(process.pid)  # the workers and the resource tracker
    returncode, out = stop(process, sig, tmp_path / "out.txt")
    if sig == signal.SIGTERM:
        assert returncode == 143, out
        assert "stopped by SIGTERM (exit code 143)" in " ".join(out.split())
    assert_all_end(everything, sig)


def test_watch_parent_does_nothing_in_a_process_not_started_by_multiprocessing() -> None:
    watch_parent()  # the test process has no multiprocessing parent: no watch, no exit


def test_stop_on_signals_raises_stopped_and_restores_the_handlers() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Stopped) as caught, stop_on_signals():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises as soon as the signal arrives
    assert (caught.value.name, caught.value.exit_code) == ("SIGTERM", 143)
    assert signal.getsignal(signal.SIGTERM) == before
