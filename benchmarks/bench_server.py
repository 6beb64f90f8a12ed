"""Server benchmark: live Espresso tables over real WebSockets on loopback, side by side
with a bare echo on the same stack (``/ws/echo``: uvicorn, Starlette, one process).

Modes (``--mode``):

- ``actions`` (default): ``coffeetable serve`` processes (``--processes``, a fresh SQLite
  file for one; for more, ``--database postgresql://...`` and ``--redis redis://...``,
  where the benchmark makes a scratch database and drops it after). First the echo: as
  many clients as the game has seats, each sending an action-sized message and waiting
  for it to come back (one frame in, one out); then the relay: ``--tables`` groups of
  4 echo sockets (``/ws/echo?group=``), each message sent back to every member (one
  frame in, one to each seat: an action's frames with no game behind them); then the
  game: ``--tables`` 4-player tables, each seat a client that plays its first legal
  action whenever it has nothing in flight; each phase for ``--seconds`` with
  ``--think`` seconds (mean) between a reply and the next message.
  A game round trip is sending an action to receiving the state that holds its event.
  Figures: messages or accepted actions a second, round trip p50/p99, and server CPU
  (every server process, from /proc) per echoed message or accepted action.
- ``scale``: the game alone at ``--think`` (0: saturating) on 1 then ``--processes``
  processes; actions a second and p99 of each.
- ``idle``: ``--sockets`` idle sockets on one process, echo sockets first, then table
  spectators (on a fresh process); the server's memory (RSS) growth per socket of each.
  The benchmark raises its file-descriptor limit to the hard limit (the server and the
  client processes inherit it) and holds fewer sockets, saying so, if that limit is lower.

Clients (``wsload.py``) are bare asyncio protocols in ``--client-processes`` worker
processes, so that the server, not the client, is what is measured. Bounded: only
127.0.0.1, fixed counts and durations. Usage::

    python benchmarks/bench_server.py --tables 100 --seconds 20 --think 1
    python benchmarks/bench_server.py --mode idle --sockets 20000
    python benchmarks/bench_server.py --mode scale --processes 2 --think 0 \\
        --database postgresql+psycopg://coffeetable:coffeetable@127.0.0.1:5432/coffeetable_test \\
        --redis redis://127.0.0.1:6391/0

Results: the README's server-benchmark section.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import timeit
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from wsload import percentile, worker  # noqa: E402

PLAYERS = 4
HOST = "127.0.0.1"
#: File descriptors a server or client process keeps for itself besides sockets.
FD_RESERVE = 64


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """One ``coffeetable serve`` child process."""

    def __init__(self, folder: Path, index: int, database: str, redis: str | None) -> None:
        self.port = free_port()
        self.log = open(folder / f"server{index}.log", "wb")  # noqa: SIM115
        command = [sys.executable, "-m", "coffeetable.cli", "serve", "--port", str(self.port)]
        command += ["--database", database] + (["--redis", redis] if redis else [])
        # One client address with many tables and sockets, acting fast: raise those limits.
        env = {**os.environ, "COFFEETABLE_MAX_BOT_SPEED": "10000"}
        for name in [
            "TABLES_PER_MINUTE",
            "OPEN_TABLES_PER_CLIENT",
            "SOCKETS_PER_CLIENT",
            "MAX_LIVE_TABLES",
            "MAX_BOT_SEATS",
            "MESSAGES_PER_SECOND",
            "MESSAGE_BURST",
            "ACTIONS_PER_SECOND",
            "ACTION_BURST",
            "ADDRESS_ACTIONS_PER_SECOND",
            "ADDRESS_ACTION_BURST",
        ]:
            env[f"COFFEETABLE_{name}"] = "1000000"
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.http = f"http://{HOST}:{self.port}"

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited; see {self.log.name}")
            try:
                if httpx.get(self.http + "/api/games", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def proc(self, name: str) -> str:
        return Path(f"/proc/{self.process.pid}/{name}").read_text()

    def cpu_seconds(self, system_only: bool = False) -> float:
        """CPU time (user + system, or system alone; every thread) used so far."""
        fields = self.proc("stat").rsplit(")", 1)[1].split()
        ticks = int(fields[12]) + (0 if system_only else int(fields[11]))
        return ticks / os.sysconf("SC_CLK_TCK")

    def rss_kb(self) -> int:
        line = next(line for line in self.proc("status").splitlines() if line.startswith("VmRSS"))
        return int(line.split()[1])

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@contextmanager
def scratch_database(url: str | None, folder: Path) -> Iterator[str]:
    """SQLite in ``folder`` (None), else a fresh PostgreSQL database dropped afterwards."""
    if url is None or url.startswith("sqlite"):
        yield url or f"sqlite:///{folder / 'bench.sqlite3'}"
        return
    import sqlalchemy

    name = f"coffeetable_bench_{uuid.uuid4().hex[:8]}"
    admin = sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        yield str(sqlalchemy.engine.make_url(url).set(database=name).render_as_string(False))
    finally:
        with admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def cluster(args: argparse.Namespace, processes: int) -> Iterator[list[Server]]:
    """``processes`` servers on one scratch database (and ``--redis`` for more than one)."""
    if processes > 1 and not (args.database and args.redis):
        raise SystemExit("more than one process needs --database postgresql://... and --redis")
    with (
        tempfile.TemporaryDirectory() as folder,
        scratch_database(args.database, Path(folder)) as database,
    ):
        servers: list[Server] = []
        try:
            for index in range(processes):
                servers.append(Server(Path(folder), index, database, args.redis))
                servers[-1].wait_ready()  # one at a time: the first one migrates
            yield servers
        finally:
            for server in servers:
                server.stop()


class Clients:
    """Client worker processes holding sockets; ``run`` plays a phase on all of them."""

    def __init__(self, targets: list[tuple[int, str, Any]], processes: int) -> None:
        context = multiprocessing.get_context("fork")
        self.pipes, self.procs = [], []
        for index in range(processes):
            parent, child = context.Pipe()
            share = targets[index::processes]
            proc = context.Process(target=worker, args=(child, HOST, share), daemon=True)
            proc.start()
            child.close()  # the worker's end: if it dies, recv() raises EOFError
            self.pipes.append(parent)
            self.procs.append(proc)
        try:
            answers = [pipe.recv() for pipe in self.pipes]
        except EOFError:
            answers = [("failed", "a client process died (see its stderr)")]
        failed = [answer[1] for answer in answers if answer[0] != "open"]
        if failed:
            self.close()
            raise RuntimeError(f"clients could not connect: {failed[0]}")
        self.count = sum(answer[1] for answer in answers)

    def run(self, servers: list[Server], seconds: float, think: float) -> dict[str, Any]:
        """Play one phase; the figures, with the servers' CPU over it."""
        for pipe in self.pipes:
            pipe.send(("run", 0.5, seconds, think))
        time.sleep(0.5)
        cpu, began = sum(s.cpu_seconds() for s in servers), time.perf_counter()
        kernel = sum(s.cpu_seconds(system_only=True) for s in servers)
        answers = [pipe.recv() for pipe in self.pipes]
        elapsed = min(time.perf_counter() - began, seconds + 0.5)
        server_cpu = sum(s.cpu_seconds() for s in servers) - cpu
        kernel = sum(s.cpu_seconds(system_only=True) for s in servers) - kernel
        rtts = [rtt for answer in answers for rtt in answer[1]]
        accepted = len(rtts)
        return {
            "accepted": accepted,
            "refused": sum(answer[2] for answer in answers),
            "per_second": round(accepted / elapsed, 1),
            "p50_ms": round(percentile(rtts, 0.50) * 1000, 2),
            "p99_ms": round(percentile(rtts, 0.99) * 1000, 2),
            "server_cpu": round(server_cpu, 2),
            "server_system_cpu": round(kernel, 2),  # of it, in the kernel (socket writes...)
            "client_cpu": round(sum(answer[3] for answer in answers), 2),
            "cpu_us_each": round(server_cpu / max(1, accepted) * 1e6, 1),
        }

    def close(self) -> None:
        for pipe in self.pipes:
            try:
                pipe.send(("close",))
                pipe.recv()
            except (OSError, EOFError):
                pass
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()


def make_tables(
    servers: list[Server], count: int, seated: bool = True
) -> list[tuple[int, str, Any]]:
    """``count`` Espresso tables, made round-robin on the servers; the seats' socket targets
    (port, path, seat), each seat on the server its table was made on."""
    targets: list[tuple[int, str, Any]] = []
    with httpx.Client(timeout=60) as http:
        for index in range(count):
            server = servers[index % len(servers)]
            body = {"game": "espresso", "players": PLAYERS, "options": {"bot_speed": 1000}}
            created = http.post(server.http + "/api/tables", json=body).json()
            table_id, tokens = created["table_id"], [created["token"]]
            if not seated:
                targets.append((server.port, f"/ws/tables/{table_id}", None))
                continue
            for _ in range(PLAYERS - 1):
                joined = http.post(f"{server.http}/api/tables/{table_id}/join", json={}).json()
                tokens.append(joined["token"])
            for seat, token in enumerate(tokens):
                targets.append((server.port, f"/ws/tables/{table_id}?token={token}", seat))
    return targets


def logged_actions(servers: list[Server]) -> int:
    listing = httpx.get(servers[0].http + "/api/tables", timeout=60).json()
    return sum(table["seq"] for table in listing)


def game_phase(args: argparse.Namespace, servers: list[Server]) -> dict[str, Any]:
    clients = Clients(make_tables(servers, args.tables), args.client_processes)
    try:
        result = clients.run(servers, args.seconds, args.think)
    finally:
        clients.close()
    result["logged_actions"] = logged_actions(servers)
    return result


def echo_phase(args: argparse.Namespace, servers: list[Server]) -> dict[str, Any]:
    count = args.tables * PLAYERS
    targets = [(servers[i % len(servers)].port, "/ws/echo", "echo") for i in range(count)]
    clients = Clients(targets, args.client_processes)
    try:
        return clients.run(servers, args.seconds, args.think)
    finally:
        clients.close()


def relay_phase(args: argparse.Namespace, servers: list[Server]) -> dict[str, Any]:
    """As many relay groups as tables, one member per seat: every message goes out to
    each member of its group, as an action's state goes to each seat."""
    targets = []
    for group in range(args.tables):
        port = servers[group % len(servers)].port
        for seat in range(PLAYERS):
            member = group * PLAYERS + seat
            targets.append((port, f"/ws/echo?group=g{group}", ("relay", member)))
    clients = Clients(targets, args.client_processes)
    try:
        return clients.run(servers, args.seconds, args.think)
    finally:
        clients.close()


def mode_actions(args: argparse.Namespace) -> dict[str, Any]:
    with cluster(args, args.processes) as servers:
        echo = echo_phase(args, servers)
        relay = relay_phase(args, servers)
        game = game_phase(args, servers)
    results: dict[str, Any] = {"echo": echo, "relay": relay, "game": game}
    for name, over, under in (("", game, echo), ("_relay", game, relay), ("_floor", relay, echo)):
        for figure, key in (("cpu", "cpu_us_each"), ("p50", "p50_ms"), ("p99", "p99_ms")):
            results[f"ratio{name}_{figure}"] = round(over[key] / under[key], 2)
    return results


def mode_scale(args: argparse.Namespace) -> dict[str, Any]:
    runs = {}
    for count in sorted({1, args.processes}):
        with cluster(args, count) as servers:
            runs[str(count)] = game_phase(args, servers)
    first, last = runs["1"], runs[str(args.processes)]
    return {"runs": runs, "speedup": round(last["per_second"] / max(1e-9, first["per_second"]), 2)}


def mode_idle(args: argparse.Namespace) -> dict[str, Any]:
    """Idle sockets on one process: the server's RSS growth per socket, echo then tables."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    count = min(args.sockets, hard - FD_RESERVE)
    per_client = max(1, hard - FD_RESERVE)
    processes = max(args.client_processes, -(-count // per_client))
    result: dict[str, Any] = {"asked": args.sockets, "sockets": count, "fd_hard_limit": hard}
    for kind in ("echo", "table"):
        with cluster(args, 1) as servers:
            (server,) = servers
            if kind == "echo":
                targets: list[tuple[int, str, Any]] = [(server.port, "/ws/echo", None)] * count
            else:
                tables = make_tables(servers, args.tables, seated=False)
                targets = [tables[i % len(tables)] for i in range(count)]
            time.sleep(1)
            before, began = server.rss_kb(), time.perf_counter()
            clients = Clients(targets, processes)
            try:
                opened = time.perf_counter() - began
                time.sleep(2)  # let the last handshakes' garbage go
                held = server.rss_kb() - before
                alive = server.process.poll() is None
                if kind == "table":  # the server's own count of the spectators it holds
                    listing = httpx.get(server.http + "/api/tables", timeout=120).json()
                    result["spectators_seen"] = sum(table["spectators"] for table in listing)
            finally:
                clients.close()
        result[kind] = {
            "held": clients.count if alive else 0,
            "open_seconds": round(opened, 1),
            "rss_growth_mb": round(held / 1024, 1),
            "kb_each": round(held / max(1, clients.count), 1),
        }
    result["ratio"] = round(result["table"]["kb_each"] / result["echo"]["kb_each"], 2)
    return result


def report(args: argparse.Namespace, results: dict[str, Any]) -> str:
    head = (
        f"mode {args.mode}, {args.processes} process(es), {args.tables} tables, "
        f"{args.seconds:g} s, think {args.think:g} s, {args.client_processes} client process(es) "
        f"(calibration: sum(range(1000)) {results['calibration_us']} us; "
        f"load average before {results['load_before']})"
    )
    lines = [head]

    def phase(name: str, p: dict[str, Any], unit: str) -> str:
        return (
            f"{name:6}: {p['per_second']:>8} {unit}/s  rtt p50 {p['p50_ms']:>7} ms  p99 "
            f"{p['p99_ms']:>7} ms  server CPU {p['cpu_us_each']} us each ({p['server_cpu']} s, "
            f"{p['server_system_cpu']} s of it in the kernel; "
            f"clients {p['client_cpu']} s; {p['refused']} refused)"
        )

    if args.mode == "actions":
        lines.append(phase("echo", results["echo"], "msg"))
        lines.append(phase("relay", results["relay"], "msg"))
        lines.append(phase("game", results["game"], "act"))
        for name, label in (("", "game/echo"), ("_relay", "game/relay"), ("_floor", "relay/echo")):
            lines.append(
                f"{label}: server CPU x{results[f'ratio{name}_cpu']}, p50 "
                f"x{results[f'ratio{name}_p50']}, p99 x{results[f'ratio{name}_p99']}"
            )
        lines.append(f"({results['game']['logged_actions']} actions in the logs)")
    elif args.mode == "scale":
        for count, run in results["runs"].items():
            lines.append(phase(f"{count} proc", run, "act"))
        lines.append(f"speedup: x{results['speedup']}")
    else:
        lines.append(
            f"fd hard limit {results['fd_hard_limit']}: {results['sockets']} of "
            f"{results['asked']} sockets asked"
        )
        for kind in ("echo", "table"):
            r = results[kind]
            lines.append(
                f"{kind:6}: {r['held']} held, opened in {r['open_seconds']} s, server RSS "
                f"+{r['rss_growth_mb']} MB = {r['kb_each']} KB per socket"
            )
        lines.append(
            f"table/echo memory per socket: x{results['ratio']} (the server counts "
            f"{results.get('spectators_seen')} spectators)"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=("actions", "scale", "idle"), default="actions")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between acts")
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--client-processes", type=int, default=1)
    parser.add_argument("--sockets", type=int, default=20000, help="idle mode: sockets")
    parser.add_argument("--database", help="SQLAlchemy URL (default: a fresh SQLite file)")
    parser.add_argument("--redis", help="Redis URL (for more than one process)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (
        1 <= args.tables <= 500
        and 0 < args.seconds <= 120
        and 1 <= args.processes <= 8
        and 1 <= args.client_processes <= 8
        and 1 <= args.sockets <= 50000
    ):
        parser.error("stay within 500 tables, 120 s, 8 processes and 50,000 sockets")
    # Every socket is a file descriptor: raise the soft limit as far as the hard one goes
    # (children inherit it); ``idle`` says how many it could hold if that is too few.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results: dict[str, Any] = {"load_before": round(os.getloadavg()[0], 2)}
    # How fast (or how shared) this machine is now: ~8 us on an idle modern core.
    results["calibration_us"] = round(timeit.timeit("sum(range(1000))", number=20000) / 0.02, 1)
    run = {"actions": mode_actions, "scale": mode_scale, "idle": mode_idle}[args.mode]
    results.update(run(args))
    results["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(json.dumps(results) if args.json else report(args, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
