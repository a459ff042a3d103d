"""spin_node: what every node executable's main() does, in the embedded world."""
from zoo_runtime import entry
from zoo_runtime.embedded import node as node_mod
import zoo_runtime.embedded as rclpy


class Once(node_mod.Node):
    """Shuts the process down from its first timer tick."""
    ticks = 0
    destroyed = False

    def __init__(self):
        super().__init__('once')
        self.create_timer(0.01, self._tick)

    def _tick(self):
        Once.ticks += 1
        rclpy.shutdown()

    def destroy_node(self):
        Once.destroyed = True
        return super().destroy_node()


def test_spin_node_inits_spins_until_shutdown_and_cleans_up(monkeypatch):
    import signal
    monkeypatch.setattr('zoo_runtime.rclpy', rclpy)
    before = signal.getsignal(signal.SIGINT)
    entry.spin_node(Once, args=[])
    assert Once.ticks == 1 and Once.destroyed
    assert not rclpy.ok()
    # SIGINT as it was: an ignored one would be inherited by every later child process
    assert signal.getsignal(signal.SIGINT) is before


def test_a_node_that_cannot_be_built_says_why_in_one_line_and_still_shuts_down(monkeypatch,
                                                                               capsys):
    """A parameter or resource the node cannot use (a ValueError from its constructor, e.g. a
    port in use): one line on stderr and exit status 2, no traceback; rclpy shut down."""
    import pytest
    monkeypatch.setattr('zoo_runtime.rclpy', rclpy)

    def broken():
        raise ValueError('go1_udp_endpoint: cannot listen on 127.0.0.1:18007: in use')
    with pytest.raises(SystemExit) as exited:
        entry.spin_node(broken, args=[])
    assert exited.value.code == 2
    assert capsys.readouterr().err == \
        'error: go1_udp_endpoint: cannot listen on 127.0.0.1:18007: in use\n'
    assert not rclpy.ok()
