"""ros_discovery_info as rmw_cyclonedds writes it (zoo_dds.ros_graph): the CDR of a
rmw_dds_common/msg/ParticipantEntitiesInfo, and a gid is an entity's 16-byte DDS GUID."""
from zoo_dds.ros_graph import TYPE, entities_info, gid, users
from zoo_dds.transport import close, participant
from zoo_runtime import messages
from zoo_runtime.introspection import Endpoint, GraphSnapshot, TopicView


def test_participant_entities_info_round_trips():
    pgid, r1, w1, w2 = (bytes(range(i, i + 16)) for i in (0, 16, 32, 48))
    cdr = entities_info(pgid, [('/nao', 'walker', [r1], [w1, w2]), ('/', 'sim', [], [])])
    msg = messages.typestore().deserialize_cdr(cdr, TYPE)
    assert bytes(msg.gid.data) == pgid
    walker, sim = msg.node_entities_info_seq
    assert (walker.node_namespace, walker.node_name, sim.node_name) == ('/nao', 'walker', 'sim')
    assert [bytes(g.data) for g in walker.reader_gid_seq] == [r1]
    assert [bytes(g.data) for g in walker.writer_gid_seq] == [w1, w2]


def test_gid_is_the_guid():
    dp = participant(0)
    try:
        assert gid(dp) == dp.get_guid().bytes and len(gid(dp)) == 16
    finally:
        close(dp)


def test_users_names_the_node_behind_each_dds_endpoint():
    """Topics by their in-process endpoints, services by server and callers (not the hidden
    proxy node, which is no announced node), /clock by the node whose physics drives the
    lockstep (the lockstep's own publisher has no node)."""
    sim, walker, proxy = object(), object(), object()

    def ends(*nodes):
        return tuple(Endpoint(object(), n, 'std_srvs/srv/Empty', None) for n in nodes)

    snap = GraphSnapshot(
        topics={'/t': TopicView('/t', 'std_msgs/msg/String', ends(walker), ends(sim)),
                '/clock': TopicView('/clock', 'rosgraph_msgs/msg/Clock', ends(None), ())},
        services={'/sim/reset': ends(sim)}, clients={'/sim/reset': ends(walker, proxy)})
    assert users(snap, '/t', 'writer') == [walker] and users(snap, '/t', 'reader') == [sim]
    assert users(snap, '/clock', 'writer', clock_node=sim) == [sim]
    assert users(snap, '/clock', 'writer') == []
    assert users(snap, 'rq:/sim/reset', 'reader') == [sim, walker, proxy]
    assert users(snap, 'rr:/sim/reset', 'writer') == [sim, walker, proxy]
