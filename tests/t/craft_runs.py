#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# craft_runs.py TEMPLATE OUT HOST KERNEL FIRST N STEP_AT BASE [TARGETS]
# An export of N runs (numbered FIRST.., one hour apart) cut from one real
# fsck run's export TEMPLATE: on each target of TARGETS (x), three
# repetitions with wall_s near BASE (+-0.5 %, seeded), +10 % on target x
# from run STEP_AT on (0: never), where the kernel gains "-new"; global
# ids from HOST and the number, so crafting twice gives the same runs.
# The checksum is recomputed as jansson writes the canonical JSON.
import copy, hashlib, json, random, sys, uuid

def enc(v):
    """jansson's JSON_COMPACT | JSON_SORT_KEYS, which the checksum is over."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        s = "%.17g" % v
        if "e" in s:
            m, e = s.split("e")
            sign = "-" if e[0] == "-" else ""
            s = m + "e" + sign + e.lstrip("+-").lstrip("0")
        elif "." not in s:
            s += ".0"
        return s
    if isinstance(v, str):
        out = ['"']
        for c in v:
            o = ord(c)
            if c == '"': out.append('\\"')
            elif c == '\\': out.append('\\\\')
            elif c == '\n': out.append('\\n')
            elif c == '\t': out.append('\\t')
            elif c == '\r': out.append('\\r')
            elif c == '\b': out.append('\\b')
            elif c == '\f': out.append('\\f')
            elif o < 0x20: out.append('\\u%04X' % o)
            else: out.append(c)
        out.append('"')
        return "".join(out)
    if isinstance(v, list):
        return "[" + ",".join(enc(x) for x in v) + "]"
    return "{" + ",".join(enc(k) + ":" + enc(v[k]) for k in sorted(v)) + "}"

tpl, out, host, kernel, first, n, step_at, base = sys.argv[1:9]
targets = (sys.argv[9] if len(sys.argv) > 9 else "x").split(",")
first, n, step_at, base = int(first), int(n), int(step_at), float(base)
d = json.load(open(tpl))
assert hashlib.sha256(enc(d["runs"]).encode()).hexdigest() == d["sha256"], \
    "the canonical JSON differs from jansson's"
t = d["runs"][0]
rnd = random.Random(host + str(first))
runs = []
for i in range(first, first + n):
    r = copy.deepcopy(t)
    r["uuid"] = str(uuid.UUID(hashlib.sha256(
        ("%s-%d" % (host, i)).encode()).hexdigest()[:32]))
    r["host"] = host
    k = kernel + ("-new" if step_at and i >= step_at else "")
    r["kernel"] = k
    r["facts"] = [f if f[1] != "kernel.release" else [f[0], f[1], k]
                  for f in r["facts"]]
    r["started"] = 1700000000 + i * 3600
    r["finished"] = r["started"] + 60
    r["cmdline"] = "fslab run (crafted)"
    tg0 = r["targets"][0]
    r["targets"] = []
    r["wlruns"] = []
    for ti, name in enumerate(targets):
        tg = copy.deepcopy(tg0)
        tg["name"], tg["idx"], tg["spec"] = name, ti, "ext4:name=" + name
        tg["path"] = "/mnt/" + name
        r["targets"].append(tg)
        for rep in range(3):
            w = copy.deepcopy(t["wlruns"][0])
            w["target"], w["rep"], w["pos"] = ti, rep, ti * 3 + rep
            p = w["phases"][0]
            v = base * (1.1 if step_at and i >= step_at and name == "x" else 1.0)
            v *= 1 + rnd.uniform(-0.005, 0.005)
            v = round(v, 6)
            p["measure"]["wall_ns"] = int(v * 1e9)
            p["metrics"] = [m if m[0] != "wall_s" else [m[0], v, m[2], m[3]]
                            for m in p["metrics"] if m[0] in
                            ("exit_status", "wall_s", "user_s", "sys_s")]
            r["wlruns"].append(w)
    runs.append(r)
d["runs"] = runs
d["nr_runs"] = len(runs)
d["sha256"] = hashlib.sha256(enc(runs).encode()).hexdigest()
json.dump(d, open(out, "w"), indent=1, sort_keys=True)
