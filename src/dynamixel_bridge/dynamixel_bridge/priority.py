"""Real-time scheduling for a bus thread (Linux SCHED_FIFO), as ros2_control's controller
manager does for its update loop. A Dynamixel bus cycle is a chain of request/status round
trips: on a loaded machine each one can wait milliseconds for a CPU, which no bus timing can win
back. Safe for the bridge and the emulator: both sleep in select between packets (the emulator
spins at most 100 us before a deadline); the SDK's own busy-polling loops must never run so."""
from __future__ import annotations

import os


def realtime_thread(priority: int) -> str:
    """Put the calling thread at SCHED_FIFO ``priority`` (1..99); one line on the outcome."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
        return f'bus thread at SCHED_FIFO priority {priority}'
    except (PermissionError, OSError, AttributeError, ValueError) as exc:
        return (f'bus thread at normal priority: SCHED_FIFO {priority} refused ({exc}; needs '
                'CAP_SYS_NICE or an rtprio limit); cycles may lag under load')


def normal_thread() -> None:
    """Back to SCHED_OTHER."""
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
