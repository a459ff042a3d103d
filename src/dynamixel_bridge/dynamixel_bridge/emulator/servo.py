"""One emulated servo: its control table in memory, the write rules, its error state.

Write rules (AX-12A e-manual / X-series e-manual facts, unverified where the spec is silent):
whole items only inside the table, read-only items and values outside an item's range are
refused (P1 range error bit, P2 access / data range error) and nothing of that write is applied;
EEPROM is locked while torque is on (X-series) or Lock = 1 (AX); an AX goal outside the angle
limits sets the angle-limit bit and is not applied. An overload (injected) turns torque off, as
the servos' alarm shutdown does: the AX error bit lasts while the overload does and torque can be
switched on again after it; the X-series Hardware Error Status latches until a reboot.

What the table asks of the motion (issue 27; AX-12A spec §8.2, XM430 §8.3): the speed register
(AX Moving Speed, XM Profile Velocity; 0 = the motor's top speed) caps the speed, the AX Torque
Limit scales the torque (0 = none), torque off leaves the servo limp, so goals written then wait;
Moving reads 1 while the servo turns (Present Speed not 0), Registered (AX 44, XM 69) 1 while a
REG_WRITE waits for its ACTION.

The ID register is EEPROM like any other (locked as above): a written ID takes effect at once (the
bus addresses the servo by it from the next packet on). The plant knows the servo by ``key``, its
place on the chain (the id it was built with), which an ID write does not change.
"""
from __future__ import annotations

from .. import instructions as ins
from ..control_table import Item, Model
from .plants import Plant
from .stall import StallWatch


class Servo:
    def __init__(self, servo_id: int, model: Model, plant: Plant, baud_register: int | None = None):
        self.model = model
        self.plant = plant
        self.key = servo_id  # the plant's name for this servo: fixed, whatever its ID register says
        self.id_changed = False  # an ID write since the bus last looked
        self.memory = bytearray(model.size)
        self._baud_register = baud_register
        self.overloaded = False  # the injected load condition, now
        self.stall_overload = False  # AX: shut down after pushing at its limit (stall.py)
        self._stall = StallWatch(plant.now)
        self.reset(servo_id)

    def reset(self, servo_id: int | None = None, ram_only: bool = False) -> None:
        """Power-on state: every item (or only RAM) at its default, the bus's baud rate and
        this id kept."""
        sid = self.id if servo_id is None else servo_id
        for it in self.model.items:
            if not ram_only or it.address >= self.model.eeprom_end:
                self._store(it, it.default)
        self._store(self.model.item('id'), sid)
        if self._baud_register is not None:
            self._store(self.model.item('baud_rate'), self._baud_register)
        self.registered = None
        self.stall_overload = False
        self._tell_plant_limits()
        if self.model.protocol == 2 and self.overloaded:
            self._store(self.model.item('hardware_error'), ins.HW_OVERLOAD)

    def _tell_plant_limits(self) -> None:
        m = self.model
        self.plant.set_speed_limit(self.key, m.speed_limit_rad_s(self.get('speed_limit')))
        self.plant.set_torque_limit(
            self.key, self.get('torque_limit') / 1023 if m.protocol == 1 else 1.0)

    @property
    def registered(self) -> tuple[int, bytes] | None:
        """The REG_WRITE waiting for ACTION (address, data), mirrored in the Registered item."""
        return self._registered

    @registered.setter
    def registered(self, value: tuple[int, bytes] | None) -> None:
        self._registered = value
        self._store(self.model.item('registered'), int(value is not None))

    # --- registers
    def get(self, name: str) -> int:
        it = self.model.item(name)
        return int.from_bytes(self.memory[it.address:it.address + it.size], 'little')

    def _store(self, it: Item, value: int) -> None:
        self.memory[it.address:it.address + it.size] = \
            (value & ((1 << 8 * it.size) - 1)).to_bytes(it.size, 'little')

    @property
    def id(self) -> int:
        return self.get('id')

    @property
    def return_delay_s(self) -> float:
        return self.get('return_delay') * 2e-6

    @property
    def status_return_level(self) -> int:
        return self.get('Status Return Level')

    @property
    def torque_on(self) -> bool:
        return bool(self.get('torque_enable'))

    def error_byte(self) -> int:
        if self.model.protocol == 1:
            return ins.P1_OVERLOAD if self.overloaded or self.stall_overload else 0
        return ins.P2_ALERT if self.get('hardware_error') else 0

    def _refresh_present(self) -> None:
        now = self.plant.present(self.key)
        if now is None:
            return
        m = self.model
        pos, vel, load = now
        lo, hi = (0, m.position_steps - 1)
        self._store(m.item('present_position'), max(lo, min(hi, pos)))
        self._store(m.item('present_velocity'), vel)
        self._store(m.item('present_load'), load if self.torque_on else 0)
        self._push_at_limit(int(self.get('present_position')))
        speed = vel & 0x3FF if m.protocol == 1 else vel
        self._store(m.item('moving'), int(speed != 0))

    # --- instructions; errors are the status error byte's instruction part
    def read(self, address: int, length: int) -> tuple[int, bytes]:
        if length < 1 or address + length > self.model.size:
            return self._err('range'), b''
        self._refresh_present()
        return 0, bytes(self.memory[address:address + length])

    def write(self, address: int, data: bytes) -> int:
        """Apply a write, all or nothing; returns the error (0 = applied)."""
        m = self.model
        changes: list[tuple[Item, int]] = []
        end = address + len(data)
        a = address
        if not data or end > m.size:
            return self._err('range')
        while a < end:
            it = m.item_at(a)
            if it is None or not it.writable or it.address != a or a + it.size > end:
                return self._err('access')
            raw = int.from_bytes(data[a - address:a - address + it.size], 'little')
            value = raw - (1 << 8 * it.size) if it.lo < 0 and raw >> (8 * it.size - 1) else raw
            if not it.lo <= value <= it.hi:
                return self._err('range')
            if a < m.eeprom_end and self._eeprom_locked():
                return self._err('access')
            changes.append((it, value))
            a += it.size
        goal = m.item('goal_position')
        for it, value in changes:
            if it is goal and m.protocol == 1:
                cw, ccw = self.get('CW Angle Limit'), self.get('CCW Angle Limit')
                if (cw or ccw) and not cw <= value <= ccw:
                    return ins.P1_ANGLE
            elif it is goal:
                lo, hi = self.get('Min Position Limit'), self.get('Max Position Limit')
                if not lo <= value <= hi:
                    return ins.P2_DATA_LIMIT
        for it, value in changes:
            self._apply(it, value)
        return 0

    def _apply(self, it: Item, value: int) -> None:
        m = self.model
        if it is m.item('torque_enable'):
            value = 0 if (value and self._alarm_shutdown()) else value
            self.stall_overload = self.stall_overload and not value  # torque on again clears it
            self.plant.set_torque(self.key, bool(value))
        if it is m.item('id') and value != self.id:
            self.id_changed = True
        self._store(it, value)
        if it is m.item('goal_position'):
            self.plant.set_goal(self.key, value)
        if it.name in ('Moving Speed', 'Profile Velocity', 'Torque Limit'):
            self._tell_plant_limits()

    def _push_at_limit(self, position: int) -> None:
        load, overload = self._stall.update(self, position)
        if load is not None:
            self._store(self.model.item('present_load'), load)
        if not overload:
            return
        if self.model.protocol == 1 and self.get('Shutdown') & ins.P1_OVERLOAD:
            self.stall_overload = True  # the AX bit lasts until torque is on again
        elif self.model.protocol == 2 and self.get('Shutdown') & ins.HW_OVERLOAD:
            self._store(self.model.item('hardware_error'),  # X: latched until a REBOOT
                        self.get('hardware_error') | ins.HW_OVERLOAD)
        else:
            return
        self._store(self.model.item('torque_enable'), 0)
        self.plant.set_torque(self.key, False)

    def _alarm_shutdown(self) -> bool:
        return self.overloaded or bool(self.model.protocol == 2 and self.get('hardware_error'))

    def _eeprom_locked(self) -> bool:
        if self.model.protocol == 2:
            return self.torque_on
        return bool(self.get('Lock'))

    def _err(self, kind: str) -> int:
        if self.model.protocol == 1:
            return ins.P1_RANGE
        return {'range': ins.P2_DATA_RANGE, 'access': ins.P2_ACCESS}[kind]

    # --- faults
    def set_overload(self, on: bool) -> None:
        self.overloaded = on
        if on:
            self._store(self.model.item('torque_enable'), 0)
            self.plant.set_torque(self.key, False)
            if self.model.protocol == 2:
                self._store(self.model.item('hardware_error'), ins.HW_OVERLOAD)

    def reboot(self) -> None:
        """Protocol 2.0 REBOOT: RAM back to defaults, a latched hardware error cleared unless the
        overload is still there."""
        self.plant.set_torque(self.key, False)
        self.reset(ram_only=True)
