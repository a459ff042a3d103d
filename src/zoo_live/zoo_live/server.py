"""A Foxglove WebSocket server on an embedded context: every topic as a ``ros2msg``/``cdr`` channel.

Channels are advertised for every topic that has a publisher (new topics are picked up within
``scan_period_s``). Messages are serialised only for topics a Foxglove client subscribes to: the
publish observer is registered while someone subscribes, and only for those topics, so a run with
no client pays nothing and publishers that build messages only for an audience
(``get_subscription_count``: ``/tf``, contacts) build them only for a subscribed client. A
latched topic (TRANSIENT_LOCAL: ``robot_description``, ``/tf_static``) is re-sent from its
publishers' history when it is subscribed, as a ROS subscriber would get it. Log times and the
server time (``Capability.Time``) are the lockstep executor's sim time, which the messages'
header stamps use too, so Foxglove's 3D panel finds the transforms at its current time.

Clients may also publish into the run (``client_publish``), call its services (``services``) and
get and set its nodes' parameters (``parameters``). The SDK server listens on a private loopback
port; the public ``host:port`` is a ``relay`` that accepts ``foxglove.websocket.v1`` (the
published spec's subprotocol) as well as the SDK's ``foxglove.sdk.v1``.
"""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import foxglove
from foxglove import Channel, Parameter, Schema, StatusLevel
from foxglove.websocket import Capability, ChannelView, Client, ClientChannel

from zoo_runtime import introspection, messages, workspace_root

from .client_publish import ClientPublish
from .parameters import Parameters
from .relay import SDK_SUBPROTOCOL, Relay
from .services import Services

DEFAULT_PORT = 8765            # Foxglove's default WebSocket port
TIME_PERIOD_NS = 20_000_000    # broadcast the sim time at most every 20 ms of it
SUBPROTOCOL = SDK_SUBPROTOCOL  # the SDK's; the relay accepts foxglove.websocket.v1 too
CAPABILITIES = [Capability.Time, Capability.ClientPublish, Capability.Services,
                Capability.Parameters]


class LiveError(RuntimeError):
    """The live server could not start (a taken port ...): one line for the user."""


class LiveServer:
    """Serve ``context``'s topics on ``ws://host:port`` (port 0: any free one; see ``port``)."""

    def __init__(self, context, *, port: int = DEFAULT_PORT, host: str = '127.0.0.1',
                 name: str = 'robozoo', scan_period_s: float = 1.0):
        self.context = context
        self.host = host
        self._fox = foxglove.Context()  # our own: channels of another run never mix in
        self._channels: dict[str, Channel] = {}
        self._types: dict[str, str] = {}
        self._subs: dict[str, int] = {}
        self._subscribed: frozenset[str] = frozenset()
        self._handle: int | None = None
        self._lock = threading.RLock()
        self._last_time: int | None = None
        self._type_of: dict[type, str] = {}
        self.sent: dict[str, int] = {}  # messages logged per topic
        self.client_publish = ClientPublish(context, self._report)
        self.parameters = Parameters(context, self._report)
        self.services = Services(context)
        try:
            self.server = foxglove.start_server(
                name=name, host='127.0.0.1', port=0, capabilities=CAPABILITIES,
                server_listener=self, supported_encodings=['cdr'],
                services=self.services.new(), context=self._fox)
        except RuntimeError as exc:
            raise LiveError(_bind_error('127.0.0.1', 0, exc)) from None
        try:
            self.relay = Relay(host, port, f'ws://127.0.0.1:{self.server.port}')
        except OSError as exc:
            self.server.stop()
            raise LiveError(_bind_error(host, port, exc)) from None
        self.port = self.relay.port
        self._stop = threading.Event()
        self.advertise()
        self._scanner = threading.Thread(target=self._scan, args=(scan_period_s,), daemon=True,
                                         name='zoo_live-scan')
        self._scanner.start()

    @property
    def url(self) -> str:
        return f'ws://{self.host}:{self.port}'

    @property
    def app_url(self) -> str:
        """The Foxglove web app's link that opens this server."""
        return ('https://app.foxglove.dev?ds=foxglove-websocket&ds.url='
                + quote(self.url, safe=''))

    def advertise(self) -> None:
        """A channel for every topic with a publisher that has none yet, and services that
        appeared since."""
        snap = introspection.graph_snapshot(self.context)
        topics = {name: t.type_name for name, t in snap.topics.items() if t.publishers}
        with self._lock:
            for name, type_name in sorted(topics.items()):
                if name not in self._channels:
                    schema = Schema(name=type_name, encoding='ros2msg',
                                    data=messages.msgdef(type_name).encode())
                    self._channels[name] = Channel(name, schema=schema, message_encoding='cdr',
                                                   context=self._fox)
                    self._types[name] = type_name
        new_services = self.services.new()
        if new_services:
            self.server.add_services(new_services)

    def _scan(self, period_s: float) -> None:
        while not self._stop.wait(period_s):
            self.advertise()

    # -- foxglove ServerListener --------------------------------------------------------------
    def on_subscribe(self, client: Client, channel: ChannelView) -> None:
        with self._lock:
            self._subs[channel.topic] = self._subs.get(channel.topic, 0) + 1
            self._observe()
        self._send_latched(channel.topic)

    def on_unsubscribe(self, client: Client, channel: ChannelView) -> None:
        with self._lock:
            self._subs[channel.topic] = max(0, self._subs.get(channel.topic, 0) - 1)
            self._observe()

    def on_client_advertise(self, client: Client, channel: ClientChannel) -> None:
        self.client_publish.advertise(client.id, channel)

    def on_client_unadvertise(self, client: Client, client_channel_id: int) -> None:
        self.client_publish.unadvertise(client.id, client_channel_id)

    def on_message_data(self, client: Client, client_channel_id: int, data: bytes) -> None:
        self.client_publish.message(client.id, client_channel_id, data)

    def on_get_parameters(self, client: Client, param_names: list[str],
                          request_id: str | None = None) -> list[Parameter]:
        return self.parameters.get(param_names)

    def on_set_parameters(self, client: Client, parameters: list[Parameter],
                          request_id: str | None = None) -> list[Parameter]:
        return self.parameters.set(parameters)

    def _report(self, line: str) -> None:
        """A refused request: one line to the clients (a status message) and to the user."""
        self.server.publish_status(line, StatusLevel.Error)
        print(f'robozoo: {line}', file=sys.stderr, flush=True)

    def _observe(self) -> None:
        """Observe exactly the subscribed topics (a publish in the swap may be missed: live)."""
        topics = frozenset(t for t, n in self._subs.items() if n > 0)
        if topics == self._subscribed and (self._handle is not None) == bool(topics):
            return
        if self._handle is not None:
            self.context.remove_publish_observer(self._handle)
            self._handle = None
        self._subscribed = topics
        if topics:
            self._handle = self.context.add_publish_observer(self._on_publish, topics)

    def _send_latched(self, topic: str) -> None:
        t = introspection.topic_view(self.context, topic)
        history = [m for p in (t.publishers if t else ()) for m in introspection.latched(p.entity)]
        for msg in history:
            self._on_publish(topic, msg)

    # -- the publish observer (the executor's thread) -----------------------------------------
    def _on_publish(self, topic: str, msg: object) -> None:
        if topic not in self._subscribed:
            return
        channel = self._channels.get(topic)
        cls = type(msg)
        type_name = self._type_of.get(cls)
        if type_name is None:
            type_name = self._type_of[cls] = messages.type_name_of(msg)
        if channel is None or type_name != self._types[topic]:
            return  # a publisher of another type on the topic: not what the schema says
        t_ns = self.context.sim_time_ns()
        t_ns = time.time_ns() if t_ns is None else t_ns
        channel.log(messages.serialize(msg), log_time=t_ns)
        self.sent[topic] = self.sent.get(topic, 0) + 1
        if self._last_time is None or t_ns - self._last_time >= TIME_PERIOD_NS:
            self._last_time = t_ns
            self.server.broadcast_time(t_ns)

    def close(self) -> None:
        """Stop serving (idempotent)."""
        self._stop.set()
        with self._lock:
            if self._handle is not None:
                self.context.remove_publish_observer(self._handle)
                self._handle = None
            self._subscribed = frozenset()
        self.relay.close()
        self.server.stop()
        self.client_publish.close()
        self.services.close()

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _bind_error(host: str, port: int, exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if 'in use' in text.lower():
        return (f'--live: port {port} on {host} is taken (another robozoo run --live, or a '
                'Foxglove bridge?); choose another with --live-port PORT, or 0 for any free one')
    return f'--live: cannot serve on {host}:{port}: {text.removeprefix("FoxgloveError: ")}'


def layout_for(robot_package: str) -> Path | None:
    """The shipped Foxglove layout of a robot description package (``go1_description`` ->
    ``config/foxglove/go1.json``), None if there is none."""
    root = workspace_root()
    if root is None:
        return None
    path = Path(root) / 'config' / 'foxglove' / f'{robot_package.removesuffix("_description")}.json'
    return path if path.is_file() else None


def describe(server: LiveServer, robot_packages: list[str]) -> list[str]:
    """Lines telling the user where to connect and which layout to import."""
    lines = [f'live: Foxglove WebSocket on {server.url} (Foxglove: Open connection -> '
             f'Foxglove WebSocket, or {server.app_url})']
    for pkg in robot_packages:
        path = layout_for(pkg)
        if path is not None:
            lines.append(f'live: layout for {pkg}: {path} (Foxglove: Layouts -> Import from file)')
    return lines

