"""ROS 2 QoS -> DDS QoS as rmw_cyclonedds maps it."""
from cyclonedds.internal import dds_infinity
from cyclonedds.qos import Policy
from zoo_runtime import rclpy

from zoo_dds.qos_map import dds_qos

Q = rclpy.qos
HASH = 'RIHS01_' + '0' * 64


def test_ros_default_is_reliable_keep_last_10_volatile_with_the_type_hash():
    qos = dds_qos(Q.QoSProfile(depth=10), writer=True, type_hash=HASH)
    assert qos[Policy.Reliability] == Policy.Reliability.Reliable(max_blocking_time=dds_infinity)
    assert qos[Policy.History] == Policy.History.KeepLast(10)
    assert qos[Policy.Durability] == Policy.Durability.Volatile
    assert qos[Policy.WriterDataLifecycle] == Policy.WriterDataLifecycle(autodispose=False)
    assert qos[Policy.Userdata] == Policy.Userdata(data=f'typehash={HASH};'.encode())
    assert qos[Policy.Liveliness] == Policy.Liveliness.Automatic(lease_duration=dds_infinity)


def test_sensor_data_is_best_effort_keep_last_5():
    qos = dds_qos(Q.qos_profile_sensor_data, writer=False, ignore_local=True)
    assert qos[Policy.Reliability] == Policy.Reliability.BestEffort
    assert qos[Policy.History] == Policy.History.KeepLast(5)
    assert qos[Policy.IgnoreLocal] == Policy.IgnoreLocal.Participant


def test_transient_local_keeps_its_history_in_the_durability_service():
    profile = Q.QoSProfile(depth=1, durability=Q.DurabilityPolicy.TRANSIENT_LOCAL)
    qos = dds_qos(profile, writer=True)
    assert qos[Policy.Durability] == Policy.Durability.TransientLocal
    assert qos[Policy.DurabilityService].history == Policy.History.KeepLast(1)


def test_keep_all_depth_zero_deadline_and_best_available():
    qos = dds_qos(Q.QoSProfile(history=Q.HistoryPolicy.KEEP_ALL), writer=True)
    assert qos[Policy.History] == Policy.History.KeepAll
    assert dds_qos(Q.QoSProfile(depth=0), writer=True)[Policy.History] == \
        Policy.History.KeepLast(1)
    dl = Q.QoSProfile(depth=1, deadline=rclpy.duration.Duration(seconds=0.5))
    assert dds_qos(dl, writer=True)[Policy.Deadline] == Policy.Deadline(500_000_000)
    best = Q.QoSProfile(depth=1, reliability=Q.ReliabilityPolicy.BEST_AVAILABLE,
                        durability=Q.DurabilityPolicy.BEST_AVAILABLE)
    reader, writer = dds_qos(best, writer=False), dds_qos(best, writer=True)
    assert reader[Policy.Reliability] == Policy.Reliability.BestEffort
    assert reader[Policy.Durability] == Policy.Durability.Volatile
    assert writer[Policy.Durability] == Policy.Durability.TransientLocal
