"""LockstepExecutor: timers at exact sim times, batched physics steps, /clock first,
determinism, the ping-pong guard, and the context hooks used for recording."""
from __future__ import annotations

import pytest

MS = 1_000_000
S = 1_000_000_000


class FakePhysics:
    """Records how far it was asked to move; `t_ns` is where the world is."""

    def __init__(self, step_ns: int = MS):
        self.step_ns = step_ns
        self.calls: list[int] = []
        self.t_ns = 0

    def advance(self, n_steps: int) -> None:
        self.calls.append(n_steps)
        self.t_ns += n_steps * self.step_ns


@pytest.fixture
def lockstep(embedded_rt):
    from zoo_runtime.embedded.executors import LockstepExecutor
    rt = embedded_rt

    def make(*nodes, **kwargs):
        ex = LockstepExecutor(context=rt.context, **kwargs)
        for node in nodes:
            ex.add_node(node)
        rt._executors.append(ex)
        return ex
    return make


def _sim_node(rt, name, **kw):
    P = rt.rclpy.parameter.Parameter
    return rt.node(name, parameter_overrides=[P('use_sim_time', value=True)], **kw)


def test_timer_fires_exactly_at_its_sim_times_with_batched_physics(embedded_rt, lockstep):
    rt = embedded_rt
    node = _sim_node(rt, 'controller')
    fired = []
    node.create_timer(0.1, lambda: fired.append(node.get_clock().now().nanoseconds))
    physics = FakePhysics()
    ex = lockstep(node)
    ex.set_physics(physics)
    ex.spin_until(1 * S)
    assert fired == [k * 100 * MS for k in range(1, 11)]
    assert physics.calls == [100] * 10  # one advance() per timer period, never per step
    assert ex.now_ns == physics.t_ns == 1 * S


def test_physics_runs_to_the_end_when_no_timer_is_due(embedded_rt, lockstep):
    node = _sim_node(embedded_rt, 'idle')
    physics = FakePhysics(step_ns=2 * MS)
    ex = lockstep(node)
    ex.set_physics(physics)
    ex.spin_until(S)
    assert physics.calls == [500] and ex.now_ns == S


def test_unaligned_timer_fires_at_the_first_step_after_it_is_due(embedded_rt, lockstep):
    node = _sim_node(embedded_rt, 'odd')
    fired = []
    node.create_timer(0.0025, lambda: fired.append(node.get_clock().now().nanoseconds))
    physics = FakePhysics(step_ns=MS)
    ex = lockstep(node)
    ex.set_physics(physics)
    ex.spin_until(10 * MS)
    assert fired == [3 * MS, 5 * MS, 8 * MS, 10 * MS]
    assert physics.calls == [3, 2, 3, 2]


def test_timers_order_by_due_time_then_creation(embedded_rt, lockstep):
    rt = embedded_rt
    node = _sim_node(rt, 'ordered')
    log = []
    for label, period in (('slow', 0.2), ('fast', 0.1), ('also_fast', 0.1)):
        node.create_timer(period, lambda label=label: log.append(
            (node.get_clock().now().nanoseconds // MS, label)))
    lockstep(node).spin_until(400 * MS)
    assert log == [(100, 'fast'), (100, 'also_fast'),
                   (200, 'slow'), (200, 'fast'), (200, 'also_fast'),
                   (300, 'fast'), (300, 'also_fast'),
                   (400, 'slow'), (400, 'fast'), (400, 'also_fast')]


def test_clock_is_published_first_and_message_chains_settle_at_t(embedded_rt, lockstep):
    rt = embedded_rt
    Int64 = rt.msg('std_msgs/msg/Int64')
    Clock = rt.msg('rosgraph_msgs/msg/Clock')
    a, b = _sim_node(rt, 'a'), _sim_node(rt, 'b')
    events = []
    ping = a.create_publisher(Int64, 'ping', 10)
    pong = b.create_publisher(Int64, 'pong', 10)
    a.create_subscription(Clock, '/clock', lambda m: events.append(
        ('clock', m.clock.sec * S + m.clock.nanosec)), 10)
    a.create_timer(0.05, lambda: ping.publish(Int64(data=a.get_clock().now().nanoseconds)))
    b.create_subscription(Int64, 'ping', lambda m: pong.publish(Int64(
        data=b.get_clock().now().nanoseconds - m.data)), 10)
    a.create_subscription(Int64, 'pong', lambda m: events.append(('pong', m.data)), 10)
    lockstep(a, b).spin_until(100 * MS)
    assert events == [('clock', 50 * MS), ('pong', 0), ('clock', 100 * MS), ('pong', 0)]


def test_keep_last_holds_within_one_tick_and_run_messages_leave_the_queue(embedded_rt,
                                                                         lockstep):
    """A burst beyond the depth drops the oldest even within one tick; messages that ran do not
    count against the depth of later ticks (the KEEP_LAST queue holds only pending ones)."""
    rt = embedded_rt
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = _sim_node(rt, 'burst')
    got = []
    node.create_subscription(Int32, 'n', lambda m: got.append(m.data), 3)
    pub = node.create_publisher(Int32, 'n', 10)
    sizes = iter([5, 3, 1, 4])
    start = [0]

    def burst():
        for _ in range(next(sizes)):
            pub.publish(Int32(data=start[0]))
            start[0] += 1
    node.create_timer(0.01, burst)
    lockstep(node).spin_until(40 * MS)
    assert got == [2, 3, 4, 5, 6, 7, 8, 10, 11, 12]


def test_clock_message_reaches_a_subscriber_that_joins_later(embedded_rt, lockstep):
    """The nodes' own clocks are set without a /clock message; one is published, from the next
    tick on, as soon as anything else listens."""
    rt = embedded_rt
    Clock = rt.msg('rosgraph_msgs/msg/Clock')
    a = _sim_node(rt, 'ticker')
    seen, stamps = [], []
    a.create_timer(0.01, lambda: stamps.append(a.get_clock().now().nanoseconds))
    ex = lockstep(a)
    ex.spin_until(30 * MS)
    a.create_subscription(Clock, '/clock', lambda m: seen.append(
        m.clock.sec * S + m.clock.nanosec), 10)
    ex.spin_until(50 * MS)
    assert stamps == [10 * MS, 20 * MS, 30 * MS, 40 * MS, 50 * MS]
    assert seen == [40 * MS, 50 * MS]


def _scenario(rt, lockstep, tag: str) -> list:
    """A small closed loop: a 'sensor' timer, a controller reacting to it, a service call."""
    Float64 = rt.msg('std_msgs/msg/Float64')
    SetBool = rt.srv('std_srvs/srv/SetBool')
    sensor = _sim_node(rt, f'sensor_{tag}')
    ctrl = _sim_node(rt, f'ctrl_{tag}')
    log = []
    state = {'x': 0.0}
    reading = sensor.create_publisher(Float64, f'/{tag}/x', 10)
    command = ctrl.create_publisher(Float64, f'/{tag}/u', 10)
    sensor.create_timer(0.01, lambda: reading.publish(Float64(data=state['x'])))
    sensor.create_subscription(Float64, f'/{tag}/u',
                               lambda m: state.__setitem__('x', state['x'] + 0.01 * m.data), 10)
    sensor.create_service(SetBool, f'/{tag}/reset', lambda req, resp: (
        state.__setitem__('x', 0.0), setattr(resp, 'success', True), resp)[-1])
    client = ctrl.create_client(SetBool, f'/{tag}/reset')

    def control(msg):
        t = ctrl.get_clock().now().nanoseconds
        u = 1.0 - msg.data
        log.append((t, round(msg.data, 12), u))
        command.publish(Float64(data=u))
        if t == 300 * MS:
            client.call_async(SetBool.Request(data=True)).add_done_callback(
                lambda f: log.append((t, 'reset', f.result().success)))

    ctrl.create_subscription(Float64, f'/{tag}/x', control, 10)
    physics = FakePhysics()
    ex = lockstep(sensor, ctrl)
    ex.set_physics(physics)
    ex.spin_until(500 * MS)
    return log + [('physics', tuple(physics.calls))]


def test_two_identical_runs_give_identical_event_logs(embedded_rt, lockstep):
    first = _scenario(embedded_rt, lockstep, 'one')
    second = _scenario(embedded_rt, lockstep, 'two')
    assert first == second
    assert any(entry[1] == 'reset' for entry in first)
    assert len(first) > 50


def test_endless_ping_pong_raises_naming_the_topics(embedded_rt, lockstep):
    rt = embedded_rt
    Int64 = rt.msg('std_msgs/msg/Int64')
    node = _sim_node(rt, 'looper')
    out_a = node.create_publisher(Int64, 'loop_a', 10)
    out_b = node.create_publisher(Int64, 'loop_b', 10)
    node.create_subscription(Int64, 'loop_a', lambda m: out_b.publish(m), 10)
    node.create_subscription(Int64, 'loop_b', lambda m: out_a.publish(m), 10)
    node.create_timer(0.01, lambda: out_a.publish(Int64(data=1)))
    with pytest.raises(RuntimeError, match=r't=0\.010000000 s.*ping-pong.*/loop_[ab]'):
        lockstep(node).spin_until(S)


def test_timer_on_a_wall_clock_is_warned_about_once(embedded_rt, lockstep, capfd):
    rt = embedded_rt
    node = rt.node('wall_clock_user')
    node.create_timer(1000.0, lambda: None)
    ex = lockstep(node)
    capfd.readouterr()
    ex.spin_until(50 * MS)
    ex.spin_until(100 * MS)
    err = capfd.readouterr().err
    assert err.count('not simulated time') == 1 and 'use_sim_time: true' in err


def test_on_progress_is_called_about_ten_times_per_sim_second(embedded_rt, lockstep):
    node = _sim_node(embedded_rt, 'progress')
    node.create_timer(0.001, lambda: None)
    seen = []
    lockstep(node).spin_until(2 * S, on_progress=seen.append)
    assert seen == [k * 100 * MS for k in range(1, 21)]


def test_spin_once_is_one_tick_to_the_next_due_timer(embedded_rt, lockstep):
    node = _sim_node(embedded_rt, 'ticker')
    node.create_timer(0.25, lambda: None)
    ex = lockstep(node, start_ns=S)
    ex.spin_once()
    assert ex.now_ns == S + 250 * MS


def test_spin_until_future_complete_counts_sim_time(embedded_rt, lockstep):
    rt = embedded_rt
    node = _sim_node(rt, 'waiter')
    future = rt.rclpy.task.Future()
    node.create_timer(0.3, lambda: future.done() or future.set_result(
        node.get_clock().now().nanoseconds))
    ex = lockstep(node)
    ex.spin_until_future_complete(future, timeout_sec=10.0)
    assert future.result() == 300 * MS and ex.now_ns == 300 * MS


def test_context_hooks_for_recording(embedded_rt, lockstep):
    rt = embedded_rt
    String = rt.msg('std_msgs/msg/String')
    node = _sim_node(rt, 'recorded')
    pub = node.create_publisher(String, 'notes', 10)
    node.create_timer(0.1, lambda: pub.publish(String(data='tick')))
    seen = []
    ctx = rt.context
    ex = lockstep(node)
    handle = ctx.add_publish_observer(lambda topic, msg: seen.append((topic, ctx.sim_time_ns(),
                                                                      type(msg).__name__)))
    assert ctx.topic_type('/notes') == 'std_msgs/msg/String'
    assert ctx.topic_type('/nothing') is None
    ex.spin_until(200 * MS)
    ctx.remove_publish_observer(handle)
    ex.spin_until(300 * MS)
    assert seen == [('/clock', 100 * MS, 'Clock'), ('/notes', 100 * MS, 'String'),
                    ('/clock', 200 * MS, 'Clock'), ('/notes', 200 * MS, 'String')]
    assert ctx.topic_type('/clock') == 'rosgraph_msgs/msg/Clock'


def test_sim_time_hook_is_none_without_a_lockstep_executor(embedded_rt):
    assert embedded_rt.context.sim_time_ns() is None


def test_bad_physics_and_settings_are_rejected(embedded_rt, lockstep):
    ex = lockstep()
    with pytest.raises(TypeError, match='step_ns'):
        ex.set_physics(object())
    with pytest.raises(ValueError, match='real_time_factor'):
        lockstep(real_time_factor=-1.0)


def test_real_time_pacing_changes_nothing_but_speed(embedded_rt, lockstep):
    rt = embedded_rt
    results = []
    for rtf in (0.0, 20.0):
        node = _sim_node(rt, f'paced_{int(rtf)}')
        fired = []
        node.create_timer(0.01, lambda n=node, f=fired: f.append(n.get_clock().now().nanoseconds))
        physics = FakePhysics()
        ex = lockstep(node, real_time_factor=rtf)
        ex.set_physics(physics)
        ex.spin_until(50 * MS)
        results.append((fired, physics.calls))
    assert results[0] == results[1]
