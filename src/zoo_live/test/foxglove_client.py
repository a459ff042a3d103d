"""A minimal client of Foxglove's WebSocket protocol (subprotocol foxglove.sdk.v1) for the tests:
read serverInfo and advertise, subscribe, and decode MessageData with the advertised ros2msg
schemas through a rosbags typestore that knows nothing but those schemas."""
from __future__ import annotations

import asyncio
import json
import struct
import time

import websockets
from rosbags.typesys import Stores, get_types_from_msg, get_typestore

from zoo_live import SUBPROTOCOL


async def receive(url: str, topics: list[str], timeout_s: float = 20.0
                  ) -> tuple[dict, dict[str, dict], dict[str, object]]:
    """(serverInfo, advertised channels by topic, the first message decoded on each topic)."""
    async with websockets.connect(url, subprotocols=[SUBPROTOCOL], max_size=None) as ws:
        info = json.loads(await ws.recv())
        assert info['op'] == 'serverInfo', info
        channels: dict[str, dict] = {}
        while not set(topics) <= set(channels):
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout_s))
            if msg['op'] == 'advertise':
                channels.update({c['topic']: c for c in msg['channels']})
        store = get_typestore(Stores.EMPTY)
        for topic in topics:
            ch = channels[topic]
            assert (ch['encoding'], ch['schemaEncoding']) == ('cdr', 'ros2msg'), ch
            store.register(get_types_from_msg(ch['schema'], ch['schemaName']))
        await ws.send(json.dumps({'op': 'subscribe', 'subscriptions': [
            {'id': i, 'channelId': channels[t]['id']} for i, t in enumerate(topics)]}))
        got: dict[str, object] = {}
        deadline = time.monotonic() + timeout_s
        while len(got) < len(topics) and time.monotonic() < deadline:
            data = await asyncio.wait_for(ws.recv(), timeout_s)
            if isinstance(data, bytes) and data[0] == 1:  # MessageData: sub id, log time, CDR
                sub, _log_time = struct.unpack_from('<IQ', data, 1)
                topic = topics[sub]
                got.setdefault(topic, store.deserialize_cdr(data[13:],
                                                            channels[topic]['schemaName']))
        return info, channels, got
