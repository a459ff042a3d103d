"""Fuzz of the packet decoders and the emulated bus (hypothesis): arbitrary bytes in arbitrary
chunks never raise and never hang; valid packets hidden in noise are found again."""
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamixel_bridge import protocol1, protocol2
from dynamixel_bridge.emulator.bus import build_bus
from dynamixel_bridge.packets import Garbage, Packet

CODECS = {1: protocol1, 2: protocol2}
chunks = st.lists(st.binary(max_size=64), max_size=20)
FAST = settings(max_examples=300, deadline=200, database=None)  # no .hypothesis/ in src


@FAST
@given(st.sampled_from([1, 2]), chunks)
def test_decoders_take_any_bytes(protocol, parts):
    dec = CODECS[protocol].Decoder()
    total = sum(len(p) for p in parts)
    out = [x for p in parts for x in dec.feed(p)] + dec.flush()
    assert all(isinstance(x, (Packet, Garbage)) for x in out)
    assert dec.pending == 0
    assert sum(len(x.raw) for x in out) <= total


@FAST
@given(st.sampled_from([1, 2]), st.integers(0, 253), st.integers(0, 255),
       st.binary(max_size=40), st.binary(max_size=20), st.integers(1, 8))
def test_a_packet_after_noise_is_found(protocol, dxl_id, code, params, noise, split):
    codec = CODECS[protocol]
    pkt = codec.encode(dxl_id, code, params)
    dec = codec.Decoder()
    stream = noise + pkt
    items = []
    for k in range(0, len(stream), split):
        items += dec.feed(stream[k:k + split])
    found = [x for x in items if isinstance(x, Packet)]
    assert found, items
    assert (found[-1].id, found[-1].code, found[-1].params) == (dxl_id, code, bytes(params))


@settings(max_examples=200, deadline=500, database=None)
@given(st.sampled_from([1, 2]), st.integers(0, 0xFE), st.integers(0, 255),
       st.binary(max_size=60))
def test_bus_answers_any_instruction_without_dying(protocol, dxl_id, code, params):
    bus = build_bus(protocol, [1, 2, 3])
    for item in bus.decoder().feed(CODECS[protocol].encode(dxl_id, code, params)):
        for reply in bus.handle(item):
            (status,) = CODECS[protocol].Decoder().feed(reply.data)
            assert isinstance(status, Packet) and status.id == reply.servo_id
