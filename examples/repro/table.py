# SPDX-License-Identifier: GPL-2.0-or-later
"""The side-by-side table of a reproduction, from `fslab compare --format
json --explain`.  argv: JSON EXPECT ROW...; EXPECT is the verdict word the
published effect predicts for the first row ("improvement", "REGRESSION",
"faster tail", "slower tail"); ROW is SPEC|PUBLISHED with SPEC one of
PHASE/METRIC (a compare row, configuration B against the baseline),
lat:PHASE:QUANTILE (the latency distribution), co:PHASE:METRIC (an
--explain co-metric, per file or MiB), ex:PHASE (the co-metrics
--explain ranks first) or per:PHASE:METRIC:FILES (a stored metric's mean
over the repetitions divided by FILES, the files of one repetition,
whether or not it moved; read from a second JSON, of `compare --all`,
given as JSON,ALLJSON).  A compare, co: or ex: SPEC may end in @GROUP to
pick that configuration (its label, or a label ending in ":GROUP" or
"=GROUP") instead of the last; with more than two configurations each is
still judged against the baseline, the first.  Only figures fslab
computed are printed; a row it could not judge says why."""
import json
import sys


def fmt(x):
    return "%.3g" % x if x is not None else "-"


def pct(p):
    return 1 + p / 100 if p is not None else None


def is_group(label, want):
    if want is None:
        return True
    return label == want or label.endswith((":" + want, "=" + want))


def pick(groups, want):
    if want is None:
        return groups[-1]
    for g in groups:
        if is_group(g["group"], want):
            return g
    return {}


def key_row(d, phase, metric, want=None):
    for w in d["workloads"]:
        for r in w["rows"]:
            if r["phase"] == phase and r["metric"] == metric:
                g = pick(r["groups"], want).get("vs_baseline")
                if not g:
                    continue
                lo = pct(g["change_ci_lo_pct"])
                hi = pct(g["change_ci_hi_pct"])
                v = g["verdict"]
                if v == "can't tell" and g.get("mdc_pct") is not None:
                    v += " (mdc %.0f%%)" % g["mdc_pct"]
                return ("%s [%s, %s]" % (fmt(g.get("ratio")), fmt(lo), fmt(hi)),
                        v, g["verdict"])
    return ("-", "no such row", None)


def ns(v):
    if v >= 1e6:
        return "%.3gms" % (v / 1e6)
    return "%.3gus" % (v / 1e3)


def lat(s):
    return "%s [%s, %s]" % (ns(s["ns"]), ns(s["ci_lo_ns"]), ns(s["ci_hi_ns"]))


def lat_row(d, phase, quant):
    for w in d["workloads"]:
        for sec in w.get("latency_distribution", []):
            for r in sec["rows"]:
                if r["phase"] != phase or r["op"] != "":
                    continue
                q = r["quantiles"][quant]
                a, b = q["a"], q["b"]
                if q["ratio"] is None:
                    why = a.get("refused") or b.get("refused") or "-"
                    return ("-", why, None)
                txt = "%s (A %s, B %s)" % (fmt(q["ratio"]), lat(a), lat(b))
                v = r["verdict"]
                if r.get("reps_tested"):
                    v += " (reps %d vs %d, Welch p adj %s)" % (
                        r["reps_a"], r["reps_b"], fmt(r["reps_p_adj"]))
                return (txt, v, r["verdict"])
    return ("-", "no latency distribution", None)


def items(d, phase, want):
    ex = d.get("explain") or {}
    return [it for it in ex.get("items", []) if it["phase"] == phase and
            is_group(it["configuration"], want)]


def ex_row(d, phase, want=None, top=3):
    for it in items(d, phase, want):
        leads = it["leads"][:top]
        if not leads:
            continue
        txt = "; ".join("%s %s" % (l["metric"], fmt(pct(l["change_pct"])))
                        for l in leads)
        return (txt, "ranked first of %d moved (%d tested)" % (
            it["leads_total"], it["tested"]), None)
    return ("-", "no co-metric moved", None)


def co_row(d, phase, metric, want=None):
    for it in items(d, phase, want):
        for lead in it["leads"]:
            if lead["metric"] == metric:
                r = pct(lead["change_pct"])
                return ("%s [%s, %s] (%s vs %s %s)" % (
                    fmt(r), fmt(pct(lead["change_lo_pct"])),
                    fmt(pct(lead["change_hi_pct"])),
                    fmt(lead["mean"]), fmt(lead["baseline"]),
                    lead["unit"]), "moved (q %s)" % fmt(lead["q"]), None)
    return ("-", "not among the co-metrics that moved", None)


def per_row(d, phase, metric, files):
    for w in (d or {}).get("workloads", []):
        for r in w["rows"]:
            if r["phase"] != phase or r["metric"] != metric:
                continue
            a, b = r["groups"][0]["mean"], r["groups"][-1]["mean"]
            if a is None or b is None:
                return ("-", "not measured", None)
            a, b = a / files, b / files
            return ("%s (%s -> %s per file)" % (
                fmt(b / a) if a else "-", fmt(a), fmt(b)),
                "per file, not tested", None)
    return ("-", "not stored (not this filesystem?)", None)


def main():
    main_json, _, all_json = sys.argv[1].partition(",")
    d = json.load(open(main_json))
    dall = json.load(open(all_json)) if all_json else None
    expect = sys.argv[2]
    rows = []
    for i, arg in enumerate(sys.argv[3:]):
        spec, _, pub = arg.partition("|")
        what, _, want = spec.partition("@")
        want = want or None
        if spec.startswith("ex:"):
            m = ex_row(d, what.split(":")[1], want)
        elif spec.startswith("lat:"):
            _, phase, quant = spec.split(":")
            m = lat_row(d, phase, quant)
        elif spec.startswith("per:"):
            _, phase, metric, files = spec.split(":", 3)
            m = per_row(dall, phase, metric, float(files))
        elif spec.startswith("co:"):
            _, phase, metric = what.split(":", 2)
            m = co_row(d, phase, metric, want)
        else:
            phase, metric = what.split("/", 1)
            m = key_row(d, phase, metric, want)
        rep = "-"
        if i == 0:
            rep = "yes" if m[2] == expect else "not reproduced"
        rows.append((spec, pub or "-", m[0], m[1], rep))
    head = ("figure", "published effect",
            "measured B/A [95% CI]", "fslab's verdict", "reproduced")
    for r in [head] + rows:
        print(" | ".join(r))
    print("result: %s" % ("reproduced" if rows and rows[0][4] == "yes"
                          else "not reproduced"))


main()
