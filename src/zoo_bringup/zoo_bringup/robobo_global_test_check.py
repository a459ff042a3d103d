"""Run the global test (scenario ``robobo_global_test``, the ROS example program) from several
start poses and judge each on ground truth: wall contacts from MuJoCo's contact list after every
physics step, gap and heading to the ball from the base pose (robobo_api.global_test_judge).

    python -m zoo_bringup.robobo_global_test_check [--poses 5] [--seed 12] [--json]

Start poses are drawn from ``--seed``: uniform in the arena with the robot's footprint at least
4 cm from the walls and 30 cm from the ball, any heading. A run ends 1.5 s after the program
stops (or at R22's 120 s).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import time

from robobo_api.global_test_judge import BALL_XY, FACING_DEG, REACH_GAP, WallContacts, reach, yaw_of

LIMIT_S = 120.0      # R22
SETTLE_S = 1.5
HALF_ARENA = 0.40    # inner half width, worlds/robobo_arena.sdf
CLEARANCE = 0.04     # m from the robot's outline to a wall at the start
ROBOT_RADIUS = 0.14  # m, the outline about the wheel axle (the collision geoms' reach)


def start_poses(n: int, seed: int) -> list[tuple[float, float, float]]:
    rng = random.Random(seed)
    limit = HALF_ARENA - ROBOT_RADIUS - CLEARANCE
    poses = []
    while len(poses) < n:
        x, y = rng.uniform(-limit, limit), rng.uniform(-limit, limit)
        if math.hypot(x - BALL_XY[0], y - BALL_XY[1]) < 0.30:
            continue
        poses.append((round(x, 3), round(y, 3), round(rng.uniform(-math.pi, math.pi), 3)))
    return poses


def run_once(pose: tuple[float, float, float], scenario: str = 'robobo_global_test') -> dict:
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario
    sc = load_scenario(scenario)
    x, y, yaw = pose
    sc.robots[0].pose = [x, y, 0.03225, 0.0, 0.0, yaw]
    robot = sc.robots[0].name
    t0 = time.perf_counter()
    with ScenarioRun(sc) as run:
        contacts = WallContacts(run.physics, robot).attach()
        program = run.nodes['global_test']
        while run.sim_time < LIMIT_S and not program.logic.done:
            run.run(0.5)
        if program.logic.done:
            run.run(SETTLE_S)
        pos, quat = run.physics.base_pose(robot)
        gap, facing = reach(float(pos[0]), float(pos[1]), yaw_of(quat))
        return {'start': list(pose), 'done_at_s': program.done_at and round(program.done_at, 2),
                'gap_cm': round(gap * 100, 2), 'facing_deg': round(facing, 2),
                'wall_turns': program.logic.wall_turns, 'wall_touches': contacts.touches,
                'wall_contact_steps': contacts.steps_in_contact,
                'reached': bool(program.logic.done and gap <= REACH_GAP and facing <= FACING_DEG),
                'sim_s': round(run.sim_time, 2), 'wall_s': round(time.perf_counter() - t0, 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--poses', type=int, default=5)
    ap.add_argument('--seed', type=int, default=12)
    ap.add_argument('--json', action='store_true', help='one JSON line per run')
    args = ap.parse_args(argv)
    ok = True
    for pose in start_poses(args.poses, args.seed):
        r = run_once(pose)
        ok &= r['reached'] and r['wall_touches'] == 0
        if args.json:
            print(json.dumps(r))
        else:
            print(f"start {r['start']}: stopped at {r['done_at_s']} s, gap {r['gap_cm']} cm, "
                  f"heading error {r['facing_deg']} deg, {r['wall_turns']} IR wall turns, "
                  f"wall touches {r['wall_touches']}, "
                  f"{'reached' if r['reached'] else 'NOT reached'} ({r['wall_s']} s wall)")
    return 0 if ok else 1


if __name__ == '__main__':
    raise SystemExit(main())
