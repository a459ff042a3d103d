"""The cost of `--live` (issue 17 item 1): the `nao_wave_walk` scenario (6 s of sim time) as fast as
possible on the embedded lockstep executor, without the live server, with it and no client, and
with a Foxglove protocol client (foxglove.sdk.v1, in a thread) subscribed to every topic.

    python benchmarks/bench_live.py

Prints a table, then one JSON line: {"bench": "live", "plain_s": ..., "idle_ratio": ...,
"subscribed_ratio": ..., "sent": ..., "messages": ..., "mbytes": ...} (sent: logged by the server;
messages: received by the client, fewer when it falls behind by more than the server's backlog of
1024 messages, as it may at many times real time). Wall seconds are the best of REPEATS.
"""
from __future__ import annotations

import asyncio
import json
import threading
import time

import websockets

SCENARIO = 'nao_wave_walk'
SIM_SECONDS = 6.0
REPEATS = 3


class Client(threading.Thread):
    """Subscribes to every advertised channel and counts what arrives until stopped."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.messages, self.bytes = url, 0, 0
        self.ready, self.stop = threading.Event(), threading.Event()

    def run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        from zoo_live import SUBPROTOCOL
        async with websockets.connect(self.url, subprotocols=[SUBPROTOCOL], max_size=None) as ws:
            channels = []
            while not channels:
                msg = json.loads(await ws.recv())
                if msg['op'] == 'advertise':
                    channels = msg['channels']
            await ws.send(json.dumps({'op': 'subscribe', 'subscriptions': [
                {'id': i, 'channelId': c['id']} for i, c in enumerate(channels)]}))
            self.ready.set()
            while not self.stop.is_set():
                try:
                    data = await asyncio.wait_for(ws.recv(), 0.2)
                except asyncio.TimeoutError:
                    continue
                if isinstance(data, bytes) and data[0] == 1:
                    self.messages += 1
                    self.bytes += len(data)


def run(mode: str) -> tuple[float, int, int, int]:
    """Wall seconds of the run, messages and bytes the client received, messages sent."""
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario

    live = None if mode == 'plain' else {'port': 0}
    with ScenarioRun(load_scenario(SCENARIO), real_time_factor=0.0, live=live) as sr:
        client = None
        if mode == 'subscribed':
            client = Client(sr.live.url)
            client.start()
            assert client.ready.wait(10)
            while len(sr.live._subscribed) < len(sr.live._channels):  # every subscription in
                time.sleep(0.01)
        t0 = time.perf_counter()
        sr.run(SIM_SECONDS)
        wall = time.perf_counter() - t0
        if client is not None:
            time.sleep(0.5)  # the server's queue drains to the client
            client.stop.set()
            client.join()
            return wall, client.messages, client.bytes, sum(sr.live.sent.values())
    return wall, 0, 0, 0


def main() -> None:
    best = {m: min(run(m) for _ in range(REPEATS)) for m in ('plain', 'idle', 'subscribed')}
    plain = best['plain'][0]
    print(f'{SCENARIO}, {SIM_SECONDS:g} s sim, as fast as possible (best of {REPEATS}):')
    for mode, (wall, n, size, sent) in best.items():
        extra = f', server sent {sent} messages, client got {n} ({size / 1e6:.1f} MB)' if n else ''
        print(f'  {mode:10s} {wall:6.2f} s wall  x{wall / plain:.2f}{extra}')
    wall, n, size, sent = best['subscribed']
    print(json.dumps({'bench': 'live', 'plain_s': round(plain, 3),
                      'idle_ratio': round(best['idle'][0] / plain, 3),
                      'subscribed_ratio': round(wall / plain, 3), 'sent': sent, 'messages': n,
                      'mbytes': round(size / 1e6, 2)}))


if __name__ == '__main__':
    main()
