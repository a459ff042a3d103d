"""``dynamixel_bridge/emulator``: the bus emulator as a node of a scenario, in either world (the
embedded runner, or its own process under ``ros2 launch``). The servos are the scenario robot's
joints (``ids`` in order -> ``joints``, default joint_1..joint_N, as the bridge names them; the
robot needs ``servo: ax12`` in the simulator block so its goals are taken on joint_targets), served
on a pseudo-terminal for any Dynamixel client (dynamixel-sdk, pypot, dynamixel_bridge).

Parameters: ``robot``, ``protocol`` (1 | 2), ``model`` (default per protocol), ``ids``,
``joints``, ``baud``, ``return_delay_us`` (-1: the model's default), ``realtime`` (the bus
thread at SCHED_FIFO, as ``--realtime``; one line if refused), ``link``: a path made a
symbolic link to the pty while the node runs (the pty's own name changes from run to run; the
node logs it too). ``robozoo dxl-emulator --scenario`` is the same emulator and link run from a
terminal."""
from __future__ import annotations

import os
import sys

from zoo_runtime import parameter_schema
from zoo_runtime.entry import spin_node

from ..control_table import DEFAULT_MODEL, baud_register, model_by_name
from .bus import build_bus
from .plants import JointsPlant
from .pty_server import SWITCH_INTERVAL_S, PtyBus
from .sim_link_node import SimLink


class DxlEmulator(SimLink):
    def __init__(self, **kwargs) -> None:
        super().__init__(None, None, node_name='dxl_emulator', **kwargs)
        p = parameter_schema.load('dynamixel_bridge', 'emulator').declare(self)
        model = model_by_name(p['model']) if p['model'] else DEFAULT_MODEL[p['protocol']]
        if baud_register(model, int(p['baud'])) is None:
            raise ValueError(f"parameter baud: {model.name} cannot run at {p['baud']}")
        ids = [int(i) for i in p['ids']]
        top = 253 if model.protocol == 1 else 252
        if not ids or len(set(ids)) != len(ids) or not all(0 <= i <= top for i in ids):
            raise ValueError(f"parameter ids: expected distinct servo ids within 0..{top} (one "
                             f"servo per id on a bus), got {ids}")
        joints = [j for j in p['joints'] if j] or [f'joint_{i}' for i in range(1, len(ids) + 1)]
        if len(joints) != len(ids):
            raise ValueError(f'parameter joints: {len(joints)} names for {len(ids)} ids')
        plant = JointsPlant(model, dict(zip(ids, joints)))
        bus = build_bus(int(p['protocol']), ids, model=model, plant=plant, baud=int(p['baud']))
        if p['return_delay_us'] >= 0:
            for s in bus.chain:
                s._store(model.item('return_delay'), int(p['return_delay_us']) // 2)
        self.link(plant, p['robot'])
        self.pty = PtyBus(bus, int(p['baud']), realtime=bool(p['realtime']),
                          log=self.get_logger().info).start()
        self.watch(self.pty)  # a dead bus thread stops the run (never a silent, idle node)
        self.link_path = p['link']
        if self.link_path:
            if os.path.islink(self.link_path):
                os.unlink(self.link_path)
            os.symlink(self.pty.path, self.link_path)
        self.get_logger().info(
            f"{model.name} ids {ids[0]}..{ids[-1]} ({len(ids)}) on protocol {p['protocol']}.0 at "
            f"{p['baud']} baud on {self.pty.path}" + (f' ({self.link_path})' if self.link_path
                                                     else '') +
            f" -> {p['robot']} joints {joints[0]}..{joints[-1]}")

    def destroy_node(self) -> None:
        pty = getattr(self, 'pty', None)
        if pty is not None:
            pty.stop()
            self.pty = None
            if self.link_path and os.path.islink(self.link_path):
                os.unlink(self.link_path)
        super().destroy_node()


def main(args=None) -> None:
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    spin_node(DxlEmulator, args)
