"""The multi-process plan (which topics and services cross which process) and the service wire
format (rmw_cyclonedds' request header before the runtime's CDR)."""
import pytest

from zoo_dds.process_plan import PlanError, make_plan, topic_table

REL = {'history': 'KEEP_LAST', 'depth': 10, 'reliability': 'RELIABLE', 'durability': 'VOLATILE'}
BE = dict(REL, reliability='BEST_EFFORT')
LATCHED = dict(REL, depth=1, durability='TRANSIENT_LOCAL')
JS = 'sensor_msgs/msg/JointState'


def _e(pubs=(), subs=(), services=None, clients=None, nodes=('n',)):
    return {'pubs': {t: {'type': ty, 'qos': q} for t, ty, q in pubs},
            'subs': {t: {'type': ty, 'qos': q} for t, ty, q in subs},
            'services': services or {}, 'clients': clients or {}, 'nodes': list(nodes)}


def test_a_topic_crosses_only_to_the_processes_that_read_it():
    sim = _e(pubs=[('/r/joint_states', JS, REL), ('/r/metrics', 'std_msgs/msg/String', REL)],
             subs=[('/r/joint_targets', JS, REL)])
    ctrl = _e(pubs=[('/r/joint_targets', JS, REL)],
              subs=[('/r/joint_states', JS, REL), ('/clock', 'rosgraph_msgs/msg/Clock', REL)])
    quiet = _e(subs=[('/r/joint_states', JS, BE)])
    plans = make_plan([sim, ctrl, quiet])
    assert set(plans[0]['out']) == {'/r/joint_states'} and plans[0]['readers'] == {
        '/r/joint_states': 2}
    assert plans[1]['in']['/r/joint_states']['from'] == [0]
    assert plans[2]['in']['/r/joint_states']['sub_qos'] == BE
    assert set(plans[0]['in']) == {'/r/joint_targets'} and '/clock' not in plans[1]['in']
    assert topic_table(plans) == ['/r/joint_states', '/r/joint_targets']


def test_visible_topics_go_out_without_a_reader_and_clock_only_from_process_0():
    clock = ('/clock', 'rosgraph_msgs/msg/Clock', REL)
    plans = make_plan([_e(pubs=[clock, ('/tf', 'tf2_msgs/msg/TFMessage', REL)]),
                       _e(pubs=[clock])], visible={'/clock', '/tf'})
    assert set(plans[0]['out']) == {'/clock', '/tf'} and plans[1]['out'] == {}


def test_dds_matching_rules_decide_which_writers_a_reader_waits_for():
    plans = make_plan([_e(pubs=[('/a', JS, BE), ('/d', JS, REL)]),
                       _e(subs=[('/a', JS, REL), ('/d', JS, LATCHED)])])
    assert plans[1]['in'] == {}  # reliable reader vs best-effort writer; latched vs volatile


def test_a_type_clash_across_processes_names_the_topic_and_nodes():
    with pytest.raises(PlanError, match=r"topic '/a': node 'x' uses sensor_msgs/msg/JointState, "
                       r"node 'y' std_msgs/msg/String"):
        make_plan([_e(pubs=[('/a', JS, REL)], nodes=['x']),
                   _e(subs=[('/a', 'std_msgs/msg/String', REL)], nodes=['y'])])


def test_a_service_called_from_another_process_gets_request_and_reply_topics():
    srv = 'std_srvs/srv/Empty'
    plans = make_plan([_e(services={'/sim/reset': srv}),
                       _e(clients={'/sim/reset': srv, '/pid/reset': srv}),
                       _e(services={'/pid/reset': srv}, clients={'/sim/reset': srv})])
    assert plans[1]['out'].keys() == {'rq:/sim/reset', 'rq:/pid/reset'}
    assert plans[1]['in']['rr:/sim/reset']['from'] == [0]
    assert plans[0]['in']['rq:/sim/reset']['from'] == [1, 2]
    assert plans[0]['readers']['rr:/sim/reset'] == 2
    assert 'rq:/pid/reset' in plans[2]['in'] and plans[2]['out'].keys() == {'rr:/pid/reset',
                                                                           'rq:/sim/reset'}


def test_a_service_served_locally_stays_local():
    srv = 'std_srvs/srv/Empty'
    plans = make_plan([_e(services={'/s': srv}), _e(services={'/s': srv}, clients={'/s': srv})])
    assert plans[0]['in'] == {} and plans[1]['out'] == {}


def test_service_samples_are_the_request_header_then_the_runtime_cdr():
    """Cyclone's own encoding of the generated request struct (header members first) equals
    what the link writes: the runtime's CDR with the 16-byte header after the encapsulation."""
    from zoo_runtime import messages

    from zoo_dds.idl_types import service_struct
    from zoo_dds.names import dds_service_type, service_topics
    from zoo_dds.service_link import pack, unpack
    srv = messages.get_service('std_srvs/srv/Trigger')
    response = srv.Response(success=True, message='walk 1 starting')
    cdr = messages.serialize(response)
    cls = service_struct('std_srvs/srv/Trigger', 'Response')
    ours = cls(request_header_guid=7, request_header_seq=3, success=True,
               message='walk 1 starting').serialize()
    assert pack(7, 3, cdr) == ours[:len(pack(7, 3, cdr))]
    assert unpack(ours)[:2] == (7, 3)
    assert messages.deserialize(unpack(ours)[2], 'std_srvs/srv/Trigger_Response') == response
    assert cls.__idl_typename__.replace('.', '::') == dds_service_type('std_srvs/srv/Trigger',
                                                                        'Response')
    assert service_topics('/nao/start_walk') == ('rq/nao/start_walkRequest',
                                                 'rr/nao/start_walkReply')


def test_a_peer_input_no_process_writes_is_read_from_dds_where_subscribed():
    sim = _e(subs=[('/r/joint_commands', JS, REL), ('/r/joint_targets', JS, REL)])
    ctrl = _e(pubs=[('/r/joint_targets', JS, REL)])
    plans = make_plan([sim, ctrl], peer_inputs={'/r/joint_commands', '/r/joint_targets',
                                                '/r/unused'})
    # a ROS 2 node's commands: read from DDS, at the subscription's QoS; a topic the run carries
    # between its processes already has a reader; nothing for what no one subscribes
    assert plans[0]['peer'] == {'/r/joint_commands': {'type': JS, 'qos': REL}}
    assert 'peer' not in plans[1] and '/r/joint_commands' not in topic_table(plans)
    assert make_plan([sim, ctrl]) == [{k: v for k, v in p.items() if k != 'peer'} for p in plans]
