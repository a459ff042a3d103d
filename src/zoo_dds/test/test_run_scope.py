"""Issue 25, "nobody in": who can reach a ``--processes`` run.

- Its Cyclone configuration is loopback only, without multicast, with unicast discovery of this
  host's participants (as rmw_cyclonedds under ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST); other
  interfaces and hosts only when named.
- The control channel takes only samples signed with the run's key: a forged sample (wrong key)
  or a replayed genuine one is dropped, counted and reported in one line naming its participant,
  and the genuine samples around it arrive as sent.
- The readers of the samples between the processes sit in the run's partition and take only the
  run's participants' samples: a writer of another partition never matches, a writer of another
  participant in the partition is refused and counted.

Three participants of one process on a random domain, configured as a run is.
"""
from __future__ import annotations

import io
import time

import pytest
from zoo_dds.control import ChannelTimeout, Control, ControlChannel, Refusals, partition
from zoo_dds.discovery import network_words, run_config
from zoo_dds.transport import close, participant

RUN = 'feedc0ffee123456'


def test_run_config_is_loopback_unicast_unless_told():
    cfg = run_config()
    assert '<NetworkInterface address="127.0.0.1"/>' in cfg
    assert cfg.count('<NetworkInterface') == 1
    assert '<AllowMulticast>false</AllowMulticast>' in cfg
    assert '<ParticipantIndex>auto</ParticipantIndex>' in cfg
    assert '<Peers><Peer address="localhost"/></Peers>' in cfg
    wide = run_config(['eth0', '10.0.0.5'], ['host-b', '10.0.0.7'])
    assert '<NetworkInterface name="eth0"/><NetworkInterface address="10.0.0.5"/>' in wide
    assert '127.0.0.1' not in wide and '<AllowMulticast>false<' in wide
    assert '<Peer address="localhost"/><Peer address="host-b"/><Peer address="10.0.0.7"/>' in wide
    with pytest.raises(ValueError, match='expected a name or an address'):
        run_config(['"/><Peer address="evil'])


def test_network_words_says_what_it_expected():
    assert network_words('--dds-peers', 'a, 10.0.0.2,') == ['a', '10.0.0.2']
    with pytest.raises(ValueError) as err:
        network_words('--dds-peers', 'a b')
    assert str(err.value) == ("--dds-peers 'a b': expected interface names, host names or "
                              'addresses separated by commas')


@pytest.fixture
def dps(domain_id):
    made = []

    def make():
        dp = participant(domain_id, run_config(), whole=True)
        made.append(dp)
        return dp

    yield make
    for dp in reversed(made):
        close(dp)


def _wait(check, timeout=10.0):
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, 'DDS discovery'
        time.sleep(0.01)


def test_forged_and_replayed_control_samples_are_refused_and_reported(dps):
    key = bytes(range(32))
    parent_dp, child_dp, forger_dp = dps(), dps(), dps()
    parent = ControlChannel(parent_dp, RUN, parent=True, key=key)
    log = io.StringIO()
    refusals = Refusals("robozoo: node 'walker'", every_s=60.0, out=log)
    child = ControlChannel(child_dp, RUN, parent=False, key=key, refusals=refusals)
    # the forger knows the run id and partition (both are in DDS discovery) but not the key
    forger = ControlChannel(forger_dp, RUN, parent=True, key=b'not the key, not at all')
    child.wait_matched(1, 10)
    _wait(lambda: forger.matched()[0] >= 1)

    parent.send('plan', 0, body={'n': 1})
    forger.send('outputs', 1, round_=7, body='/tmp/elsewhere')
    forger.send('exit')
    forger.send('tick', 0, 5, 0, {'orders': {}, 'to': [1]})
    parent.send('metrics', 1, round_=1)
    got = [child.recv(lambda m: True, 10).kind for _ in range(2)]
    assert got == ['plan', 'metrics']
    with pytest.raises(ChannelTimeout):
        child.recv(lambda m: True, 0.3)  # nothing else came through

    # a genuine sample written again by someone else (seen on the wire): a replay
    spy = ControlChannel(forger_dp, RUN, parent=False, key=b'x' * 32)
    _wait(lambda: parent.matched()[0] >= 2)
    parent.send('exit')
    assert child.recv(lambda m: True, 10).kind == 'exit'
    copy = None
    end = time.monotonic() + 10
    while copy is None and time.monotonic() < end:
        copy = next((m for m in spy.reader.take(8) if getattr(m, 'kind', '') == 'exit'), None)
        time.sleep(0.01)
    assert copy is not None
    forger.writer.write(Control(kind=copy.kind, proc=copy.proc, t_ns=copy.t_ns, round=copy.round,
                             body=copy.body, seq=copy.seq, auth=copy.auth))
    with pytest.raises(ChannelTimeout):
        child.recv(lambda m: True, 0.5)

    where = f'robozoo/{RUN}/down'
    assert refusals.counts == {where: 4}
    lines = log.getvalue().splitlines()
    # the first refusal is reported at once, the rest wait for the next report (one line)
    assert lines == [
        f"robozoo: node 'walker': warning: refused 1 DDS sample(s) not from this run's "
        f"processes ({where}: 1); last on {where}: 'outputs' sample not signed with this run's "
        f'key, from DDS participant {forger_dp.get_guid()}']
    refusals.flush()
    lines = log.getvalue().splitlines()
    assert len(lines) == 2 and f"refused 3 DDS sample(s) not from this run's processes " \
        f"({where}: 3); last on {where}: 'exit' sample replayed (sequence number" in lines[1]


def test_data_readers_take_only_the_runs_participants(dps):
    from cyclonedds.pub import Publisher
    from cyclonedds.qos import Policy, Qos
    from cyclonedds.sub import Subscriber
    from zoo_dds.qos_map import dds_qos
    from zoo_dds.transport import RawReader, RawWriter, WriterFilter
    from zoo_runtime import messages
    from types import SimpleNamespace

    own, stranger, other_run = dps(), dps(), dps()
    mine = Qos(Policy.Partition(partitions=[partition(RUN), '']))
    qos = SimpleNamespace(history='KEEP_ALL', depth=10, reliability='RELIABLE',
                          durability='VOLATILE')
    T = 'std_msgs/msg/String'
    refused = []
    reader_dp = dps()
    reader = RawReader(reader_dp, '/chatter', T, dds_qos(qos, writer=False),
                       subscriber=Subscriber(reader_dp, qos=Qos(
                           Policy.Partition(partitions=[partition(RUN)]))),
                       accept=WriterFilter([own.get_guid(), reader_dp.get_guid()],
                                           lambda where, src: refused.append((where, src))))
    writers = {name: RawWriter(dp, '/chatter', T, dds_qos(qos, writer=True),
                               publisher=Publisher(dp, qos=part))
               for name, dp, part in (
                   ('own', own, mine), ('stranger', stranger, mine),
                   ('other_run', other_run,
                    Qos(Policy.Partition(partitions=[partition('0' * 16), '']))),
                   ('default', other_run, None))}
    # the writers of another run's partition and of the default partition never match
    _wait(lambda: reader.matched() >= 2)
    # a ROS 2 node's reader (default partition) sees every writer but the other run's own
    ros = RawReader(dps(), '/chatter', T, dds_qos(qos, writer=False))
    _wait(lambda: ros.matched() >= 4)
    time.sleep(0.3)
    assert reader.matched() == 2 and ros.matched() == 4
    for name, w in writers.items():
        w.write(messages.serialize(messages.get_message(T)(data=name)))
    got = []
    end = time.monotonic() + 5
    while len(got) + len(refused) < 2 and time.monotonic() < end:
        got += [messages.deserialize(c, T).data for c in reader.take()]
        time.sleep(0.01)
    assert got == ['own']
    assert sorted(messages.deserialize(c, T).data for c in ros.take()) == [
        'default', 'other_run', 'own', 'stranger']
    assert refused == [('rt/chatter', str(stranger.get_guid()))]


def test_a_report_names_every_topic_it_sums_up():
    log = io.StringIO()
    refusals = Refusals('robozoo', every_s=60.0, out=log)
    refusals('rt/a', 'p1')
    refusals('rt/b', 'p2')
    refusals('robozoo/x/up', 'p3', "'ack' sample not signed with this run's key")
    refusals.flush()
    refusals.flush()  # nothing new: no line
    assert log.getvalue().splitlines() == [
        "robozoo: warning: refused 1 DDS sample(s) not from this run's processes (rt/a: 1); "
        "last on rt/a: its writer is not one of this run's processes, from DDS participant p1",
        "robozoo: warning: refused 2 DDS sample(s) not from this run's processes "
        "(robozoo/x/up: 1, rt/b: 1); last on robozoo/x/up: 'ack' sample not signed with this "
        "run's key, from DDS participant p3"]
    assert refusals.counts == {'rt/a': 1, 'rt/b': 1, 'robozoo/x/up': 1} and refusals.total == 3
