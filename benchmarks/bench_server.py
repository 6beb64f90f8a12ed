"""Server benchmark: live Espresso tables over real WebSockets on loopback.

One ``coffeetable serve`` process (a fresh SQLite file); this process drives it:

1. echo: as many connections as the game phase uses, each sending an
   action-sized message to ``/ws/echo`` and waiting for it to come back, for
   ``--seconds``: the bare cost of uvicorn + Starlette + websockets + Python;
2. game: ``--tables`` 4-player Espresso tables, every seat a client that plays
   its first legal action (a play if any, else flip/recycle/ready) as soon as
   a state offers one, one action in flight per seat, for ``--seconds``.
   Round trip = sending an action to receiving the state that includes it;
   refused actions ("too slow") are counted apart;
3. connections: ``--spectators`` more clients join as spectators while the
   game clients stay connected; each must receive its first state.

Bounded: only 127.0.0.1, a fixed number of tables and clients, fixed phase
durations. Usage::

    python benchmarks/bench_server.py --tables 100 --seconds 10 --spectators 1000

Recorded results, ``--tables 100 --seconds 10 --spectators 1000``, Python 3.11,
SQLite WAL, on a 2-core VM shared with other work (load average ~5, so every
process got about a third of a core; calibration 25 us, ~3x an idle core)::

    echo : 3132 msg/s        rtt p50   86 ms  p99  390 ms  (server CPU 81 us per message)
    game :  245 actions/s    rtt p50 1491 ms  p99 2339 ms  (77 refused, 2880 in the logs;
                                                            server CPU 927 us per action)
    ratio game/echo: p50 x17.3, p99 x6.0, server CPU x11.4
    connections: 1000 spectators + 400 players held (spectators opened in 6.9 s)

Throughput and latency there are bounded by the CPU time the machine gave the
processes; the per-action server CPU is the figure to compare. One accepted
action costs about 11 echoes: it is one frame in and ~10 out (events and a
state for each of 4 seats), with 4 views of the game to build and encode.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import timeit
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PLAYERS = 4
ACTION_MESSAGE = json.dumps({"type": "act", "action": {"type": "flip", "count": 3}})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def first_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    plays = [action for action in legal if action["type"] in ("play", "joker")]
    return (plays or legal)[0]


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    refused: int = 0
    accepted: int = 0


#: Extra arguments for every client connection (``--no-deflate`` empties compression).
CONNECT: dict[str, Any] = {"max_size": None}


#: Mean seconds a client "thinks" before each action (``--think``); 0: none, saturating.
THINK = {"mean": 0.0}


async def think() -> None:
    """Wait like a player between seeing a state and acting: uniform in [0.5, 1.5] x mean."""
    if THINK["mean"] > 0:
        await asyncio.sleep(THINK["mean"] * (0.5 + random.random()))


async def echo_client(url: str, stop: float, stats: Stats) -> None:
    async with connect(url, **CONNECT) as ws:
        while time.perf_counter() < stop:
            await think()
            sent = time.perf_counter()
            await ws.send(ACTION_MESSAGE)
            await ws.recv()
            stats.rtts.append(time.perf_counter() - sent)
            stats.accepted += 1


async def seat_client(
    ws: ClientConnection, seat: int, start: asyncio.Event, stop: float, stats: Stats
) -> None:
    """Play the first legal action whenever nothing is in flight; time each round trip.

    The client stays cheap (the server is what we measure): it parses only the
    ``seq`` and ``legal`` of a state, and an event only while waiting for its own.
    """
    await start.wait()
    legal: list[dict[str, Any]] = []
    seq = 0
    sent_at: float | None = None
    mine = False  # an event of ours arrived since sending
    head = len('{"type":"state","seq":')
    try:
        async with asyncio.timeout(stop - time.perf_counter() + 10):
            async for text in ws:
                assert isinstance(text, str)
                if text.startswith('{"type":"state"'):
                    seq = int(text[head : text.index(",", head)])
                    legal = json.loads(text[text.rfind(',"legal":') + 9 : text.rfind(',"actors":')])
                    if sent_at is not None and mine:
                        stats.rtts.append(time.perf_counter() - sent_at)
                        stats.accepted += 1
                        sent_at, mine = None, False
                elif text.startswith('{"type":"event"'):
                    if sent_at is not None and json.loads(text)["event"].get("seat") == seat:
                        mine = True
                elif text.startswith('{"type":"rejected"'):
                    stats.refused += 1
                    sent_at, mine = None, False
                if sent_at is None:
                    if time.perf_counter() >= stop:
                        return
                    if legal:
                        await think()
                        sent_at = time.perf_counter()
                        action = first_move(legal)
                        await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
    except TimeoutError:
        return


class Server:
    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.log = open(folder / "server.log", "wb")  # noqa: SIM115
        command = [sys.executable, "-m", "coffeetable.cli", "serve", "--port", str(self.port)]
        command += ["--database", f"sqlite:///{folder / 'bench.sqlite3'}"]
        # A benchmark is one client address with many tables and sockets: raise those limits.
        env = {**os.environ, "COFFEETABLE_MAX_BOT_SPEED": "10000"}
        for name in ("TABLES_PER_MINUTE", "OPEN_TABLES_PER_CLIENT", "SOCKETS_PER_CLIENT"):
            env[f"COFFEETABLE_{name}"] = "1000000"
        for name in ("MAX_LIVE_TABLES", "MAX_BOT_SEATS", "MESSAGES_PER_SECOND", "MESSAGE_BURST"):
            env[f"COFFEETABLE_{name}"] = "1000000"
        for name in ("ACTIONS_PER_SECOND", "ACTION_BURST"):
            env[f"COFFEETABLE_{name}"] = "1000000"
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"

    async def wait_ready(self, client: httpx.AsyncClient) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if (await client.get(self.http + "/api/games")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
        raise RuntimeError("the server did not start")

    def cpu_seconds(self) -> float:
        """CPU time the server process used so far (Linux; 0 elsewhere)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


async def make_table(http: httpx.AsyncClient, base: str) -> tuple[str, list[str]]:
    body = {"game": "espresso", "players": PLAYERS, "options": {"bot_speed": 1000}}
    created = (await http.post(base + "/api/tables", json=body)).json()
    tokens = [created["token"]]
    for _ in range(PLAYERS - 1):
        joined = (await http.post(f"{base}/api/tables/{created['table_id']}/join", json={})).json()
        tokens.append(joined["token"])
    return created["table_id"], tokens


async def run(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {"tables": args.tables, "seconds": args.seconds, "think": args.think}
    # How fast (or how shared) this machine is now: ~8 us on an idle modern core.
    results["calibration_us"] = round(timeit.timeit("sum(range(1000))", number=20000) / 0.02, 1)
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        limits = httpx.Limits(max_connections=50)
        try:
            async with httpx.AsyncClient(timeout=60, limits=limits) as http:
                await server.wait_ready(http)
                clients = args.tables * PLAYERS

                # 1. echo
                echo = Stats()
                cpu, client_cpu = server.cpu_seconds(), time.process_time()
                stop = time.perf_counter() + args.seconds
                await asyncio.gather(
                    *(echo_client(server.ws + "/ws/echo", stop, echo) for _ in range(clients))
                )
                results["echo"] = summarize(echo, args.seconds)
                results["echo"]["server_cpu"] = round(server.cpu_seconds() - cpu, 2)
                results["echo"]["client_cpu"] = round(time.process_time() - client_cpu, 2)
                results["echo"]["cpu_us_each"] = cpu_each(results["echo"])

                # 2. game
                tables = await asyncio.gather(
                    *(make_table(http, server.http) for _ in range(args.tables))
                )
                sockets: list[ClientConnection] = []
                for table_id, tokens in tables:
                    for token in tokens:
                        url = f"{server.ws}/ws/tables/{table_id}?token={token}"
                        sockets.append(await connect(url, **CONNECT))
                game = Stats()
                start = asyncio.Event()
                stop = time.perf_counter() + args.seconds
                tasks = [
                    asyncio.create_task(seat_client(ws, index % PLAYERS, start, stop, game))
                    for index, ws in enumerate(sockets)
                ]
                began, cpu = time.perf_counter(), server.cpu_seconds()
                client_cpu = time.process_time()
                start.set()
                await asyncio.gather(*tasks)
                results["game"] = summarize(game, time.perf_counter() - began)
                results["game"]["client_cpu"] = round(time.process_time() - client_cpu, 2)
                results["game"]["server_cpu"] = round(server.cpu_seconds() - cpu, 2)
                results["game"]["cpu_us_each"] = cpu_each(results["game"])
                listing = (await http.get(server.http + "/api/tables")).json()
                results["game"]["logged_actions"] = sum(table["seq"] for table in listing)
                results["ratio_p50"] = results["game"]["p50_ms"] / results["echo"]["p50_ms"]
                results["ratio_p99"] = results["game"]["p99_ms"] / results["echo"]["p99_ms"]

                # 3. connections
                results["connections"] = await hold_spectators(server, tables, args.spectators)
                results["connections"]["players_connected"] = len(sockets)
                for ws in sockets:
                    await ws.close()
        finally:
            server.stop()
    return results


async def hold_spectators(
    server: Server, tables: list[tuple[str, list[str]]], count: int
) -> dict[str, Any]:
    """Open ``count`` spectators (spread over the tables); each must get a state."""
    began = time.perf_counter()
    watchers: list[ClientConnection] = []

    async def watch(table_id: str) -> None:
        ws = await connect(f"{server.ws}/ws/tables/{table_id}", **CONNECT)
        watchers.append(ws)
        while json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "state":
            pass

    for batch in range(0, count, 100):
        await asyncio.gather(
            *(watch(tables[i % len(tables)][0]) for i in range(batch, min(count, batch + 100)))
        )
    opened = time.perf_counter() - began
    async with httpx.AsyncClient(timeout=60) as http:
        listing = (await http.get(server.http + "/api/tables")).json()
    held = sum(table["spectators"] for table in listing)
    for ws in watchers:
        await ws.close()
    return {"spectators_held": held, "open_seconds": round(opened, 2)}


def cpu_each(phase: dict[str, Any]) -> float:
    """Server CPU microseconds per accepted action (or echoed message)."""
    return round(phase["server_cpu"] / max(1, phase["accepted"]) * 1e6, 1)


def summarize(stats: Stats, seconds: float) -> dict[str, Any]:
    return {
        "accepted": stats.accepted,
        "refused": stats.refused,
        "per_second": round(stats.accepted / seconds, 1),
        "p50_ms": round(percentile(stats.rtts, 0.50) * 1000, 2),
        "p99_ms": round(percentile(stats.rtts, 0.99) * 1000, 2),
    }


def report(results: dict[str, Any]) -> str:
    echo, game, conns = results["echo"], results["game"], results["connections"]
    clients = results["tables"] * PLAYERS
    return "\n".join(
        [
            f"{results['tables']} tables x {PLAYERS} seats = {clients} clients, "
            f"{results['seconds']:g} s per phase, think {results['think']:g} s, 127.0.0.1 "
            f"(calibration: sum(range(1000)) takes {results['calibration_us']} us)",
            f"echo : {echo['per_second']:>9} msg/s      rtt p50 {echo['p50_ms']:>7} ms  "
            f"p99 {echo['p99_ms']:>7} ms  (server CPU {echo['cpu_us_each']} us per message; "
            f"CPU s: server {echo['server_cpu']}, clients {echo['client_cpu']})",
            f"game : {game['per_second']:>9} actions/s  rtt p50 {game['p50_ms']:>7} ms  "
            f"p99 {game['p99_ms']:>7} ms  ({game['refused']} refused, "
            f"{game['logged_actions']} in the logs; "
            f"server CPU {game['cpu_us_each']} us per action; "
            f"CPU s: server {game['server_cpu']}, clients {game['client_cpu']})",
            f"ratio game/echo: p50 x{results['ratio_p50']:.1f}, p99 x{results['ratio_p99']:.1f}, "
            f"server CPU x{game['cpu_us_each'] / echo['cpu_us_each']:.1f}",
            f"connections: {conns['spectators_held']} spectators + {conns['players_connected']} "
            f"players held (spectators opened in {conns['open_seconds']} s)",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds each client waits before acting (a paced load); 0 saturates",
    )
    parser.add_argument(
        "--no-deflate", action="store_true", help="clients do not offer permessage-deflate"
    )
    args = parser.parse_args()
    THINK["mean"] = args.think
    if args.no_deflate:
        CONNECT["compression"] = None
    if not (1 <= args.tables <= 500 and 0 < args.seconds <= 120 and 0 <= args.spectators <= 5000):
        parser.error("stay within 1-500 tables, 120 s and 5000 spectators")
    if os.name == "posix":
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    results = asyncio.run(run(args))
    print(json.dumps(results) if args.json else report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
