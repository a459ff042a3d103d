"""ros_discovery_info as rmw_cyclonedds writes it (zoo_dds.ros_graph): the CDR of a
rmw_dds_common/msg/ParticipantEntitiesInfo, and a gid is an entity's 16-byte DDS GUID."""
from zoo_dds.ros_graph import TYPE, entities_info, gid
from zoo_dds.transport import close, participant
from zoo_runtime import messages


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
