"""robobo_msgs has upstream's messages, services and fields (R7; upstream
mintforpeople/robobo-ros-msgs 37b6a174c1, robobo_msgs/msg and srv), lower-cased for rosidl."""
from zoo_runtime.interfaces.robobo_msgs.msg import IRs, Wheels
from zoo_runtime.interfaces.robobo_msgs.srv import MovePanTilt, MoveWheels, ResetWheels


def fields(msg) -> list[str]:
    return list(msg.get_fields_and_field_types()) if hasattr(msg, 'get_fields_and_field_types') \
        else list(vars(msg))


def test_fields_and_wrapped_types():
    req = MoveWheels.Request()
    assert [f for f in ('lspeed', 'rspeed', 'time', 'unlockid') if hasattr(req, f)] == \
        ['lspeed', 'rspeed', 'time', 'unlockid']
    assert req.lspeed.data == 0 and MoveWheels.Response().error.data == 0
    pt = MovePanTilt.Request()
    for f in ('panpos', 'panspeed', 'panunlockid', 'tiltpos', 'tiltspeed', 'tiltunlockid'):
        assert getattr(pt, f).data == 0
    w = Wheels()
    for f in ('wheelposr', 'wheelposl', 'wheelspeedr', 'wheelspeedl'):
        assert getattr(w, f).data == 0
    irs = IRs()
    for f in ('frontc', 'frontr', 'frontrr', 'frontl', 'frontll', 'backc', 'backr', 'backl'):
        assert hasattr(getattr(irs, f), 'range')
    assert ResetWheels.Response().error.data == 0


def test_every_upstream_interface_exists():
    import zoo_runtime.interfaces.robobo_msgs.msg as msg
    import zoo_runtime.interfaces.robobo_msgs.srv as srv
    for name in ('Blob', 'Fling', 'IRs', 'Lane', 'Led', 'ModuleControlCommand',
                 'MovePanTiltCommand', 'MoveWheelsCommand', 'OrientationEuler',
                 'PlaySoundCommand', 'QrCode', 'QrCodeChange', 'ResetWheelsCommand',
                 'SetBlobCommand', 'SetCameraCommand', 'SetEmotionCommand', 'SetLedCommand',
                 'SetSensorFrequencyCommand', 'TalkCommand', 'Tap', 'Wheels'):
        getattr(msg, name)()
    for name in ('MovePanTilt', 'MoveWheels', 'PlaySound', 'ResetWheels', 'SetCamera',
                 'SetEmotion', 'SetLed', 'SetLoad', 'SetModule', 'SetSensorFrequency', 'Talk'):
        getattr(srv, name).Request()
