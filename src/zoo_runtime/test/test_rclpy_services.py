"""Services and clients: sync-style and async round trips, futures, tasks, blocking call()."""
from __future__ import annotations

import threading

import pytest


def _echo_server(rt, node, name='toggle'):
    SetBool = rt.srv('std_srvs/srv/SetBool')

    def handle(request, response):
        response.success = request.data
        response.message = f'set to {request.data}'
        return response

    return node.create_service(SetBool, name, handle)


def test_service_round_trip_with_spin_until_future_complete(rt):
    SetBool = rt.srv('std_srvs/srv/SetBool')
    server = rt.node('server')
    _echo_server(rt, server)
    client_node = rt.node('client')
    client = client_node.create_client(SetBool, 'toggle')
    assert client.wait_for_service(timeout_sec=5.0)
    assert client.service_is_ready()
    ex = rt.executor(server, client_node)
    future = client.call_async(SetBool.Request(data=True))
    ex.spin_until_future_complete(future, timeout_sec=5.0)
    assert future.done()
    assert future.result().success is True and future.result().message == 'set to True'
    future = client.call_async(SetBool.Request(data=False))
    rt.rclpy.spin_until_future_complete(client_node, future, executor=ex, timeout_sec=5.0)
    assert future.result().success is False


def test_await_client_inside_an_async_callback(rt):
    """rclpy's executor holds a callback's mutually exclusive group until its coroutine ends
    (ros2/rclpy jazzy rclpy/rclpy/executors.py, Executor._make_handler: ending_execution only
    after `await call_coroutine()`), so the awaited client must be in another group."""
    SetBool = rt.srv('std_srvs/srv/SetBool')
    Bool = rt.msg('std_msgs/msg/Bool')
    server = rt.node('async_server')
    _echo_server(rt, server)
    node = rt.node('async_caller')
    client = node.create_client(SetBool, 'toggle',
                                callback_group=rt.rclpy.callback_groups.ReentrantCallbackGroup())
    answers = []

    async def on_request(msg):
        response = await client.call_async(SetBool.Request(data=msg.data))
        answers.append(response.message)

    node.create_subscription(Bool, 'request', on_request, 10)
    pub = node.create_publisher(Bool, 'request', 10)
    ex = rt.executor(server, node)
    assert client.wait_for_service(timeout_sec=5.0)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    pub.publish(Bool(data=True))
    pub.publish(Bool(data=False))
    assert rt.spin_until(ex, lambda: len(answers) == 2)
    assert answers == ['set to True', 'set to False']


def test_an_awaiting_callback_holds_its_mutually_exclusive_group(rt):
    """The client in the subscription's (default) group: its response cannot be handled while
    the callback awaits it, in rclpy as here; a timer of the group waits too, one of another
    group runs."""
    SetBool = rt.srv('std_srvs/srv/SetBool')
    Bool = rt.msg('std_msgs/msg/Bool')
    server = rt.node('held_server')
    served = []

    def handle(request, response):
        served.append(request.data)
        response.message = 'done'
        return response

    server.create_service(SetBool, 'toggle', handle)
    node = rt.node('held_caller')
    client = node.create_client(SetBool, 'toggle')
    answers, ticks = [], {'same': 0, 'other': 0}

    async def on_request(msg):
        response = await client.call_async(SetBool.Request(data=msg.data))
        answers.append(response.message)

    node.create_subscription(Bool, 'request', on_request, 10)
    pub = node.create_publisher(Bool, 'request', 10)
    ex = rt.executor(server, node)
    assert client.wait_for_service(timeout_sec=5.0)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    pub.publish(Bool(data=True))
    assert rt.spin_until(ex, lambda: served == [True])  # answered; the callback awaits that
    node.create_timer(0.01, lambda: ticks.__setitem__('same', ticks['same'] + 1))
    node.create_timer(0.01, lambda: ticks.__setitem__('other', ticks['other'] + 1),
                      callback_group=rt.rclpy.callback_groups.MutuallyExclusiveCallbackGroup())
    rt.spin_for(ex, 0.5)
    assert answers == [] and ticks['same'] == 0 and ticks['other'] > 10


@pytest.mark.filterwarnings('ignore:coroutine')
def test_a_coroutine_returned_by_a_plain_callback_is_never_run(rt):
    """rclpy awaits a callback only when it is a coroutine function (ros2/rclpy jazzy
    rclpy/rclpy/executors.py, await_or_execute): what a plain function returns is dropped."""
    node = rt.node('plain')
    ran = {'plain': 0, 'async': 0}

    async def work(kind):
        ran[kind] += 1

    async def tick():
        await work('async')

    node.create_timer(0.01, lambda: work('plain'))
    node.create_timer(0.01, tick)
    ex = rt.executor(node)
    assert rt.spin_until(ex, lambda: ran['async'] >= 3)
    assert ran['plain'] == 0


def test_async_service_callback(rt):
    Trigger = rt.srv('std_srvs/srv/Trigger')
    node = rt.node('async_service')

    async def handle(request, response):
        response.success = True
        response.message = 'done'
        return response

    node.create_service(Trigger, 'go', handle)
    client = node.create_client(Trigger, 'go')
    ex = rt.executor(node)
    assert client.wait_for_service(timeout_sec=5.0)
    future = client.call_async(Trigger.Request())
    ex.spin_until_future_complete(future, timeout_sec=5.0)
    assert future.result().message == 'done'


def test_blocking_call_works_while_another_thread_spins(rt):
    SetBool = rt.srv('std_srvs/srv/SetBool')
    server = rt.node('blocking_server')
    _echo_server(rt, server)
    caller = rt.node('blocking_caller')
    client = caller.create_client(SetBool, 'toggle')
    ex = rt.executor(server, caller)
    spinner = threading.Thread(target=ex.spin, daemon=True)
    spinner.start()
    try:
        assert client.wait_for_service(timeout_sec=5.0)
        assert client.call(SetBool.Request(data=True)).success is True
    finally:
        ex.shutdown()
        spinner.join(timeout=5.0)
    assert not spinner.is_alive()


def test_blocking_call_from_the_executor_thread_is_a_clear_error(embedded_rt):
    rt = embedded_rt
    SetBool = rt.srv('std_srvs/srv/SetBool')
    node = rt.node('deadlocker')
    _echo_server(rt, node)
    client = node.create_client(SetBool, 'toggle')
    errors = []

    def on_timer():
        timer.cancel()
        try:
            client.call(SetBool.Request(data=True))
        except RuntimeError as e:
            errors.append(str(e))

    timer = node.create_timer(0.001, on_timer)
    ex = rt.executor(node)
    assert rt.spin_until(ex, lambda: errors)
    assert "Client.call('/toggle')" in errors[0] and 'deadlock' in errors[0]


def test_service_callback_must_return_the_response(embedded_rt):
    rt = embedded_rt
    Trigger = rt.srv('std_srvs/srv/Trigger')
    node = rt.node('forgetful')
    node.create_service(Trigger, 'oops', lambda req, resp: None)
    client = node.create_client(Trigger, 'oops')
    client.call_async(Trigger.Request())
    with pytest.raises(TypeError, match="service '/oops' callback returned None"):
        rt.executor(node).spin_once(timeout_sec=1.0)


def test_wrong_request_type_is_rejected(rt):
    node = rt.node('picky')
    client = node.create_client(rt.srv('std_srvs/srv/SetBool'), 'toggle')
    with pytest.raises(TypeError):
        client.call_async(rt.srv('std_srvs/srv/Trigger').Request())


def test_future_basics(rt):
    Future = rt.rclpy.task.Future
    f = Future()
    seen = []
    f.add_done_callback(lambda fut: seen.append(fut.result()))
    assert not f.done()
    f.set_result(3)
    assert f.done() and f.result() == 3 and seen == [3]
    g = Future()
    g.set_exception(ValueError('bad'))
    assert isinstance(g.exception(), ValueError)
    with pytest.raises(ValueError):
        g.result()
    h = Future()
    h.cancel()
    assert h.cancelled()


def test_create_task_runs_coroutines_that_await_futures(rt):
    node = rt.node('tasks')
    ex = rt.executor(node)
    gate = rt.rclpy.task.Future()
    order = []

    async def waiter():
        order.append('start')
        value = await gate
        order.append(f'got {value}')
        return value * 2

    task = ex.create_task(waiter)
    ex.spin_once(timeout_sec=0.1)
    assert order == ['start'] and not task.done()
    gate.set_result(21)
    ex.spin_until_future_complete(task, timeout_sec=5.0)
    assert task.result() == 42 and order == ['start', 'got 21']
