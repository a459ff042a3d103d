"""Control tables per servo model, and their units (no ROS imports).

AX-12A (Protocol 1.0): spec snake.md §8.2 (e-manual and arbotix ax12.py agree). XM430-W350
(Protocol 2.0): spec §8.3 (DynamixelSDK dynamixel_easy_sdk/control_table/xm430_w350.model).
Defaults not given by the spec (firmware version, present voltage/temperature, X-series gains and
limits) are plausible e-manual values, marked ``# e-manual`` and unverified; nothing in the bridge
depends on them. Position units: AX 1024 steps over 300 deg, centre 512 = 0 rad (the simulator's
grid, zoo_sim/ax12_servo.py); X 4096 per revolution, 2048 = 0 rad.
"""
from __future__ import annotations

import dataclasses
import math


@dataclasses.dataclass(frozen=True)
class Item:
    name: str
    address: int
    size: int
    writable: bool = False
    default: int = 0
    lo: int = 0
    hi: int = 0  # inclusive range of a writable item


def _rw(name: str, address: int, size: int, default: int, lo: int, hi: int) -> Item:
    return Item(name, address, size, True, default, lo, hi)


@dataclasses.dataclass(frozen=True)
class Model:
    name: str
    number: int  # the Model Number register
    protocol: int
    items: tuple[Item, ...]
    eeprom_end: int  # first RAM address
    size: int  # bytes of the table the emulator serves
    roles: dict  # bridge role -> item name
    state_block: tuple[int, int]  # (address, length): present load/current .. position, one read
    position_steps: int
    position_centre: int
    position_range_rad: float
    max_torque_nm: float  # at full load / per unit of effort conversion

    def __post_init__(self) -> None:
        object.__setattr__(self, '_by_name', {i.name: i for i in self.items})

    def item(self, name_or_role: str) -> Item:
        by_name = self._by_name  # type: ignore[attr-defined]
        return by_name[self.roles.get(name_or_role, name_or_role)]

    def item_at(self, address: int) -> Item | None:
        for it in self.items:
            if it.address <= address < it.address + it.size:
                return it
        return None

    # --- units
    @property
    def rad_per_step(self) -> float:
        return self.position_range_rad / self.position_steps

    def position_to_rad(self, value: int) -> float:
        return (value - self.position_centre) * self.rad_per_step

    def rad_to_position(self, rad: float) -> int:
        """Nearest register value (not clamped: see ``clamp_position``)."""
        return int(round(rad / self.rad_per_step)) + self.position_centre

    def position_limits(self) -> tuple[int, int]:
        if self.protocol == 1:
            return self.item('CW Angle Limit').default, self.item('CCW Angle Limit').default
        return self.item('Min Position Limit').default, self.item('Max Position Limit').default

    def velocity_to_rad_s(self, raw: int) -> float:
        if self.protocol == 1:  # 0.111 rpm per unit, bit 10 = CW (negative)
            v = (raw & 0x3FF) * 0.111 * 2 * math.pi / 60
            return -v if raw & 0x400 else v
        return _signed(raw, 32) * 0.229 * 2 * math.pi / 60

    def rad_s_to_velocity(self, rad_s: float) -> int:
        if self.protocol == 1:
            mag = min(1023, int(round(abs(rad_s) * 60 / (2 * math.pi) / 0.111)))
            return mag | (0x400 if rad_s < 0 else 0)
        return int(round(rad_s * 60 / (2 * math.pi) / 0.229)) & 0xFFFFFFFF

    def speed_limit_rad_s(self, raw: int) -> float | None:
        """The speed cap a speed register asks for: AX Moving Speed 0.111 rpm per unit, XM
        Profile Velocity 0.229 rpm per unit (spec §8.3); 0 = none (the motor's own top speed)."""
        if raw == 0:
            return None
        return raw * (0.111 if self.protocol == 1 else 0.229) * 2 * math.pi / 60

    def load_to_effort(self, raw: int) -> float:
        """N m: AX Present Load is 0..1023 of the maximum torque, bit 10 = CW (negative);
        X Present Current is signed, 2.69 mA per unit, through a linear torque constant."""
        if self.protocol == 1:
            t = (raw & 0x3FF) / 1023 * self.max_torque_nm
            return -t if raw & 0x400 else t
        return _signed(raw, 16) * CURRENT_UNIT_A * XM430_TORQUE_PER_A

    def effort_to_load(self, nm: float) -> int:
        if self.protocol == 1:
            mag = min(1023, int(round(abs(nm) / self.max_torque_nm * 1023)))
            return mag | (0x400 if nm < 0 else 0)
        units = int(round(nm / XM430_TORQUE_PER_A / CURRENT_UNIT_A))
        return max(-32768, min(32767, units)) & 0xFFFF


def _signed(value: int, bits: int) -> int:
    return value - (1 << bits) if value & (1 << (bits - 1)) else value


CURRENT_UNIT_A = 0.00269
XM430_TORQUE_PER_A = 4.1 / 2.3  # stall 4.1 N m (spec §8.3, unverified) at 2.3 A (e-manual)

AX12A = Model(
    name='AX-12A', number=12, protocol=1, eeprom_end=24, size=50,
    items=(
        Item('Model Number', 0, 2, default=12),
        Item('Firmware Version', 2, 1, default=24),  # e-manual
        _rw('ID', 3, 1, 1, 0, 253),
        _rw('Baud Rate', 4, 1, 1, 0, 254),
        _rw('Return Delay Time', 5, 1, 250, 0, 254),  # 2 us per unit
        _rw('CW Angle Limit', 6, 2, 0, 0, 1023),
        _rw('CCW Angle Limit', 8, 2, 1023, 0, 1023),
        _rw('Temperature Limit', 11, 1, 70, 0, 150),
        _rw('Min Voltage Limit', 12, 1, 60, 50, 250),
        _rw('Max Voltage Limit', 13, 1, 140, 50, 250),
        _rw('Max Torque', 14, 2, 1023, 0, 1023),
        _rw('Status Return Level', 16, 1, 2, 0, 2),
        _rw('Alarm LED', 17, 1, 36, 0, 127),
        _rw('Shutdown', 18, 1, 36, 0, 127),
        _rw('Torque Enable', 24, 1, 0, 0, 1),
        _rw('LED', 25, 1, 0, 0, 1),
        _rw('CW Compliance Margin', 26, 1, 1, 0, 255),
        _rw('CCW Compliance Margin', 27, 1, 1, 0, 255),
        _rw('CW Compliance Slope', 28, 1, 32, 0, 254),
        _rw('CCW Compliance Slope', 29, 1, 32, 0, 254),
        _rw('Goal Position', 30, 2, 512, 0, 1023),
        _rw('Moving Speed', 32, 2, 0, 0, 1023),
        _rw('Torque Limit', 34, 2, 1023, 0, 1023),
        Item('Present Position', 36, 2, default=512),
        Item('Present Speed', 38, 2),
        Item('Present Load', 40, 2),
        Item('Present Voltage', 42, 1, default=120),  # e-manual, 0.1 V
        Item('Present Temperature', 43, 1, default=32),  # e-manual
        Item('Registered', 44, 1),
        Item('Moving', 46, 1),
        _rw('Lock', 47, 1, 0, 0, 1),
        _rw('Punch', 48, 2, 32, 0, 1023),
    ),
    roles={'torque_enable': 'Torque Enable', 'goal_position': 'Goal Position',
           'present_position': 'Present Position', 'present_velocity': 'Present Speed',
           'present_load': 'Present Load', 'return_delay': 'Return Delay Time',
           'id': 'ID', 'baud_rate': 'Baud Rate', 'speed_limit': 'Moving Speed',
           'torque_limit': 'Torque Limit', 'moving': 'Moving', 'registered': 'Registered'},
    state_block=(36, 6),
    position_steps=1024, position_centre=512, position_range_rad=math.radians(300.0),
    max_torque_nm=1.5)  # stall torque at 12 V (spec §3.5)

XM430_W350 = Model(
    name='XM430-W350', number=1020, protocol=2, eeprom_end=64, size=147,
    items=(
        Item('Model Number', 0, 2, default=1020),
        Item('Model Information', 2, 4),
        Item('Firmware Version', 6, 1, default=45),  # e-manual
        _rw('ID', 7, 1, 1, 0, 252),
        _rw('Baud Rate', 8, 1, 1, 0, 7),
        _rw('Return Delay Time', 9, 1, 250, 0, 254),  # 2 us per unit
        _rw('Drive Mode', 10, 1, 0, 0, 13),
        _rw('Operating Mode', 11, 1, 3, 0, 16),
        _rw('Secondary ID', 12, 1, 255, 0, 255),
        _rw('Protocol Type', 13, 1, 2, 1, 2),
        _rw('Homing Offset', 20, 4, 0, -1044479, 1044479),
        _rw('Moving Threshold', 24, 4, 10, 0, 1023),
        _rw('Temperature Limit', 31, 1, 80, 0, 100),
        _rw('Max Voltage Limit', 32, 2, 160, 95, 160),
        _rw('Min Voltage Limit', 34, 2, 95, 95, 160),
        _rw('PWM Limit', 36, 2, 885, 0, 885),
        _rw('Current Limit', 38, 2, 1193, 0, 1193),
        _rw('Velocity Limit', 44, 4, 200, 0, 1023),
        _rw('Max Position Limit', 48, 4, 4095, 0, 4095),
        _rw('Min Position Limit', 52, 4, 0, 0, 4095),
        _rw('Shutdown', 63, 1, 52, 0, 255),
        _rw('Torque Enable', 64, 1, 0, 0, 1),
        _rw('LED', 65, 1, 0, 0, 1),
        _rw('Status Return Level', 68, 1, 2, 0, 2),
        Item('Registered Instruction', 69, 1),
        Item('Hardware Error Status', 70, 1),
        _rw('Velocity I Gain', 76, 2, 1920, 0, 16383),
        _rw('Velocity P Gain', 78, 2, 100, 0, 16383),
        _rw('Position D Gain', 80, 2, 0, 0, 16383),
        _rw('Position I Gain', 82, 2, 0, 0, 16383),
        _rw('Position P Gain', 84, 2, 800, 0, 16383),
        _rw('Bus Watchdog', 98, 1, 0, 0, 127),
        _rw('Goal PWM', 100, 2, 0, -885, 885),
        _rw('Goal Current', 102, 2, 0, -1193, 1193),
        _rw('Goal Velocity', 104, 4, 0, -200, 200),
        _rw('Profile Acceleration', 108, 4, 0, 0, 32767),
        _rw('Profile Velocity', 112, 4, 0, 0, 32767),
        _rw('Goal Position', 116, 4, 2048, 0, 4095),
        Item('Realtime Tick', 120, 2),
        Item('Moving', 122, 1),
        Item('Moving Status', 123, 1),
        Item('Present PWM', 124, 2),
        Item('Present Current', 126, 2),
        Item('Present Velocity', 128, 4),
        Item('Present Position', 132, 4, default=2048),
        Item('Velocity Trajectory', 136, 4),
        Item('Position Trajectory', 140, 4),
        Item('Present Input Voltage', 144, 2, default=120),  # e-manual, 0.1 V
        Item('Present Temperature', 146, 1, default=35),  # e-manual
    ),
    roles={'torque_enable': 'Torque Enable', 'goal_position': 'Goal Position',
           'present_position': 'Present Position', 'present_velocity': 'Present Velocity',
           'present_load': 'Present Current', 'return_delay': 'Return Delay Time',
           'hardware_error': 'Hardware Error Status', 'id': 'ID', 'baud_rate': 'Baud Rate',
           'speed_limit': 'Profile Velocity', 'moving': 'Moving',
           'registered': 'Registered Instruction'},
    state_block=(126, 10),
    position_steps=4096, position_centre=2048, position_range_rad=2 * math.pi,
    max_torque_nm=4.1)

MODELS = {m.name: m for m in (AX12A, XM430_W350)}
DEFAULT_MODEL = {1: AX12A, 2: XM430_W350}

# Baud Rate register -> bps: AX 2000000 / (value + 1); X-series a fixed list
X_BAUD = {0: 9600, 1: 57600, 2: 115200, 3: 1_000_000, 4: 2_000_000, 5: 3_000_000,
          6: 4_000_000, 7: 4_500_000}


def baud_register(model: Model, bps: int) -> int | None:
    """The Baud Rate register value for ``bps`` (None if the model cannot run at it)."""
    if model.protocol == 1:
        value = round(2_000_000 / bps) - 1
        return value if 0 <= value <= 254 and abs(2_000_000 / (value + 1) - bps) / bps < 0.03 \
            else None
    return next((k for k, v in X_BAUD.items() if v == bps), None)


def model_by_name(name: str) -> Model:
    try:
        return MODELS[name]
    except KeyError:
        raise ValueError(f'unknown servo model {name!r} (known: {", ".join(MODELS)})') from None

