"""TOWR's phase-based legged trajectory optimization (Winkler et al. 2018) in casadi + IPOPT.

Plain Python (no ROS import). The pieces, each its own module:
robot_model (robots from YAML, mass and inertia by pinocchio), schedule (contact schedules),
terrain (h(x, y) from SDF worlds), splines (cubic Hermite node splines), nlp (the NLP, built once
per structure), solve (bounds, parameters, initial guess, budget, cache), sampling and plan_file
(plan.npz), checks (C1-C6, C9 from a plan file), plan_bag (rosbag2 + markers), plots, planning
(request -> plan), cli (`robozoo plan`).

For a tracking node::

    from trajectory_optimizer import load_plan
    plan = load_plan('out/plan/plan.npz')      # validated; PlanFileError on a bad file
    s = plan.at(1.25)                          # PlanSample: base_pos, base_quat, foot_pos, ...
"""
from .plan_file import Plan, PlanFileError, PlanSample, load_plan, save_plan
from .planning import PlanRequest, PlanRequestError, make_plan

__all__ = ['Plan', 'PlanFileError', 'PlanSample', 'PlanRequest', 'PlanRequestError', 'load_plan',
           'make_plan', 'save_plan']
