"""When the Robobo app sends each status, per SET-SENSOR-FREQUENCY level (no ROS, no sockets).

The Android app robobopy talks to, as its published sources say:

- mintforpeople/robobo-rob-interface-module (dce9ff7, 2018-11),
  ``rob-interface-module/src/main/java/com/mytechia/robobo/rob/remoterob/implementation/``
  ``RemoteRobModuleImplementation.java``: the base (ROB) sends its status every 100 ms from the
  start (``irob.setRobStatusPeriod(100)``); ``StatusManager.java``: a level sets that period and the
  phone's own ones (``setStatusFrequency``), and at each base status
  - WHEELS, PAN, TILT go out when more than their period has passed since the last check and the
    position changed (``sendWheelsStatus``: ``lastWheelStatusTime`` is taken before the change
    test; WHEELS compares the positions, not the speeds);
  - BAT-BASE goes out when its period has passed, changed or not (``sendBatteryStatus``);
  - IRS goes out when a sensor moved by more than 15 (``MIN_IR_CHANGE_TO_STATUS``, the app's raw
    scale; here: when a rounded value changed, robobo_api README "Deviations").
- mintforpeople/robobo-sensing (9a6b2d7, 2020-09), ``sensing/src/main/java/com/mytechia/robobo/``
  ``framework/sensing/``: ``accel/android/AndroidAccelerationModule.java`` (with
  ``ASensingModule.canNotify``): ACCELERATION when an axis moved more than a threshold (0.08 m/s^2,
  FAST 0.04, MAX 0) and the level's period has passed (200 ms from the start; LOW 500, NORMAL 200,
  FAST 50, MAX 10); Android delivers the sensor every 50 ms (``SENSOR_DELAY_MICROS``).
  ``orientation/android/AndroidOrientationModule.java`` and ``AOrientationModule.java``:
  ORIENTATION when, after 200 ms, an angle moved more than 1 degree. Its ``onFrequencyModeChanged``
  (500/200/50/10 ms) is never subscribed (``startup`` subscribes to power modes only), so the
  level leaves it at 200 ms, as here.
- mintforpeople/robobo-remote-control (9d927b0, 2020-09), ``remote-control/src/main/java/com/``
  ``mytechia/robobo/framework/remote_control/remotemodule/SetSensorFrequencyCommandExecutor.java``:
  the levels are LOW, NORMAL, FAST, MAX; any other value is logged and ignored. robobopy 1.5.0's
  ``StatusFrequency.High`` sends "HIGH" (``utils/StatusFrequency.py``), which that app ignores.

Ours: the app compares ``lastTime + period < now`` in wall milliseconds on statuses that arrive
over Bluetooth with jitter; on the simulator's exact clock a strict test would drop every second
status when the base's period equals the phone's (at every level they are equal), so here a
status is due once a full period has passed. BAT-PHONE: no source found; it follows BAT-BASE.
"""
from __future__ import annotations

import dataclasses
import math

LEVELS = ('LOW', 'NORMAL', 'FAST', 'MAX')   # SetSensorFrequency's Int8 0 ... 3 (robobo_msgs)


@dataclasses.dataclass(frozen=True)
class Rates:
    base: float             # s: the base's status period (WHEELS/PAN/TILT/IRS/BAT-BASE arrive)
    motors: float           # s: WHEELS, PAN, TILT
    battery: float          # s: BAT-BASE (BAT-PHONE: ours)
    accel: float            # s: ACCELERATION
    accel_threshold: float  # m/s^2 an axis must move
    orientation: float = 0.2       # s (never changed by a level, module docstring)
    orientation_min_deg: float = 1.0


START = Rates(base=0.1, motors=0.5, battery=30.0, accel=0.2, accel_threshold=0.08)
RATES = {
    'LOW': Rates(base=1.0, motors=1.0, battery=30.0, accel=0.5, accel_threshold=0.08),
    'NORMAL': Rates(base=0.333, motors=0.333, battery=20.0, accel=0.2, accel_threshold=0.08),
    'FAST': Rates(base=0.1, motors=0.1, battery=10.0, accel=0.05, accel_threshold=0.04),
    'MAX': Rates(base=0.01, motors=0.01, battery=1.0, accel=0.01, accel_threshold=0.0),
}
EPS_S = 1e-6   # sim-time rounding of a timer's ticks


class StatusGate:
    """Which statuses go out, fed with every new reading at sim time ``now`` (s)."""

    def __init__(self):
        self.rates = START
        self._checked: dict[str, float] = {}   # status -> when its period last restarted
        self._last: dict[str, tuple] = {}      # status -> the values it compares against

    def set_level(self, level: str) -> Rates:
        """A level's rates (KeyError for one the app does not know)."""
        self.rates = RATES[level]
        return self.rates

    def _due(self, name: str, now: float, period: float) -> bool:
        return now - self._checked.get(name, -math.inf) >= period - EPS_S

    def motor(self, name: str, now: float, position: tuple) -> bool:
        """WHEELS (positions), PAN, TILT: StatusManager.sendWheelsStatus / sendPanStatus."""
        if not self._due(name, now, self.rates.motors):
            return False
        self._checked[name] = now
        if self._last.get(name) == position:
            return False
        self._last[name] = position
        return True

    def battery(self, name: str, now: float) -> bool:
        """BAT-BASE (and BAT-PHONE): every period, changed or not."""
        if not self._due(name, now, self.rates.battery):
            return False
        self._checked[name] = now
        return True

    def acceleration(self, now: float, xyz: tuple) -> bool:
        return self._moved('ACCELERATION', now, xyz, self.rates.accel,
                           self.rates.accel_threshold)

    def orientation(self, now: float, ypr: tuple) -> bool:
        return self._moved('ORIENTATION', now, ypr, self.rates.orientation,
                           self.rates.orientation_min_deg)

    def _moved(self, name: str, now: float, values: tuple, period: float,
               threshold: float) -> bool:
        """Once the period has passed, a value beyond the threshold from the last one sent (the
        app compares with the last change it saw, sent or not: a real phone's noisy sensor soon
        sends a newer one; the simulator's is noise-free, so a change seen inside the period
        would never be sent)."""
        if not self._due(name, now, period):
            return False
        last = self._last.get(name)
        if last is not None and max(abs(a - b) for a, b in zip(values, last)) <= threshold:
            return False
        self._last[name], self._checked[name] = values, now
        return True
