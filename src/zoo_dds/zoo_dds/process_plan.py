"""Which topics cross which process boundary in a multi-process run (no ROS, no DDS imports).

Each process reports its endpoints after building its nodes: ``{'pubs': {topic: info},
'subs': {topic: info}, 'services': {name: type}, 'clients': {name: type}, 'nodes': [...]}``,
``info`` being ``{'type': 'pkg/msg/T', 'qos': {'history', 'depth', 'reliability',
'durability'}}``. The plan says, per process, which topics it writes to DDS (``out``: another
process reads them, or they are in ``visible``, the topics a DDS peer should see) and which it
reads (``in``, with the processes whose writers it waits for). ``/clock`` never crosses between
processes of a run (each process's lockstep executor publishes its own at the same sim time)
but process 0, the simulator's, writes it for peers when visible. A service called from another
process adds its request and reply topics (``rq:<name>``, ``rr:<name>``) to the same tables.
"""
from __future__ import annotations

CLOCK = '/clock'
REQUEST, REPLY = 'rq:', 'rr:'  # plan keys of a service's request and reply topics
SERVICE_QOS = {'history': 'KEEP_LAST', 'depth': 10, 'reliability': 'RELIABLE',
               'durability': 'VOLATILE'}  # rclpy's qos_profile_services_default


class PlanError(ValueError):
    """The nodes cannot be split this way (one line naming topic or service and nodes)."""


def matches(pub_qos: dict, sub_qos: dict) -> bool:
    """DDS's request/offer rule for the two policies the shipped QoS vary: a reliable reader
    needs a reliable writer, a transient-local reader a transient-local writer."""
    if sub_qos['reliability'] == 'RELIABLE' and pub_qos['reliability'] == 'BEST_EFFORT':
        return False
    return not (sub_qos['durability'] == 'TRANSIENT_LOCAL'
                and pub_qos['durability'] == 'VOLATILE')


def make_plan(endpoints: list[dict], visible: set[str] = frozenset(),
              extra_reads: dict[str, dict] | None = None,
              peer_inputs: set[str] = frozenset()) -> list[dict]:
    """Per process: ``{'out': {topic: info}, 'in': {topic: {'type', 'qos' (the first remote
    writer's), 'from': [procs]}}, 'readers': {topic: n}}``; ``readers`` counts the remote
    processes reading each out topic (for the discovery wait). ``extra_reads`` are topics process
    0 reads although no node of it subscribes (the bag recorder's). ``peer_inputs``: topics a
    DDS peer (a ROS 2 node) may command; a process subscribing one that no process of the run
    writes reads it from DDS too (``peer``: {topic: {'type', 'qos'}}, only when there is one)."""
    _check_types(endpoints)
    subs = [dict(e['subs']) for e in endpoints]
    for topic, info in (extra_reads or {}).items():
        subs[0].setdefault(topic, info)
    plans = [{'out': {}, 'in': {}, 'readers': {}} for _ in endpoints]
    for p, e in enumerate(endpoints):
        for topic, sub in subs[p].items():
            if topic == CLOCK:
                continue
            writers = [q for q, other in enumerate(endpoints) if q != p and topic in other['pubs']
                       and matches(other['pubs'][topic]['qos'], sub['qos'])]
            if not writers:
                continue
            first = endpoints[writers[0]]['pubs'][topic]
            plans[p]['in'][topic] = {'type': first['type'], 'qos': first['qos'],
                                     'sub_qos': sub['qos'], 'from': writers}
            for q in writers:
                plans[q]['out'].setdefault(topic, endpoints[q]['pubs'][topic])
                plans[q]['readers'][topic] = plans[q]['readers'].get(topic, 0) + 1
    for p, e in enumerate(endpoints):
        for topic in sorted(peer_inputs):
            if topic in e['subs'] and topic not in plans[p]['in']:
                sub = e['subs'][topic]
                plans[p].setdefault('peer', {})[topic] = {'type': sub['type'], 'qos': sub['qos']}
    for topic in visible:
        for q, e in enumerate(endpoints):
            if topic in e['pubs'] and (topic != CLOCK or q == 0):
                plans[q]['out'].setdefault(topic, e['pubs'][topic])
    _link_services(endpoints, plans)
    return plans


def _link_services(endpoints: list[dict], plans: list[dict]) -> None:
    """A client whose service is served in another process (and not in its own) calls it over
    the request topic ``rq:<name>`` and gets the answer on ``rr:<name>``, written by the
    lowest-numbered process serving it (in-process: the first server created)."""
    for p, e in enumerate(endpoints):
        for name, srv_type in e.get('clients', {}).items():
            if name in e.get('services', {}):
                continue
            servers = [q for q, o in enumerate(endpoints)
                       if q != p and name in o.get('services', {})]
            if not servers:
                continue
            q = servers[0]
            served = endpoints[q]['services'][name]
            if served != srv_type:
                raise PlanError(f"service '{name}': node {_owner(endpoints, p)} calls it as "
                                f'{srv_type}, node {_owner(endpoints, q)} serves {served}')
            request, reply = REQUEST + name, REPLY + name
            plans[p]['out'][request] = {'type': srv_type, 'qos': SERVICE_QOS}
            plans[p]['readers'][request] = 1
            plans[p]['in'][reply] = {'type': srv_type, 'qos': SERVICE_QOS,
                                     'sub_qos': SERVICE_QOS, 'from': [q]}
            plans[q]['in'].setdefault(request, {'type': srv_type, 'qos': SERVICE_QOS,
                                                'sub_qos': SERVICE_QOS, 'from': []})
            plans[q]['in'][request]['from'].append(p)
            plans[q]['out'][reply] = {'type': srv_type, 'qos': SERVICE_QOS}
            plans[q]['readers'][reply] = plans[q]['readers'].get(reply, 0) + 1


def topic_table(plans: list[dict]) -> list[str]:
    """Every topic some process writes, sorted: the ids the lockstep's write orders use."""
    return sorted({t for plan in plans for t in plan['out']})


def _owner(endpoints: list[dict], p: int) -> str:
    nodes = endpoints[p].get('nodes') or [f'process {p}']
    return ', '.join(repr(n) for n in nodes)


def _check_types(endpoints: list[dict]) -> None:
    seen: dict[str, tuple[str, int]] = {}
    for p, e in enumerate(endpoints):
        for kind in ('pubs', 'subs'):
            for topic, info in e[kind].items():
                first = seen.setdefault(topic, (info['type'], p))
                if first[0] != info['type']:
                    raise PlanError(
                        f"topic '{topic}': node {_owner(endpoints, first[1])} uses "
                        f"{first[0]}, node {_owner(endpoints, p)} {info['type']}")
