# Per repository and binary: wall (marks), machine CPU (engine processes +
# containers + shims from sample.tsv between the marks, + every curate
# process's user+sys from cpu-*.tsv), valid tasks, and each task's verdict.
import json, subprocess, sys, bisect, statistics
M = "/tmp/m53"
def marks(b):
    out = {}
    for line in open(f"{M}/marks-{b}.tsv"):
        repo, kind, val = line.rstrip("\n").split("\t")
        out.setdefault(repo, {})[kind] = val
    return out
rows = [l.rstrip("\n").split("\t") for l in open(f"{M}/sample.tsv")][1:]
ts = [float(r[0]) for r in rows]
def engine_at(b, t):
    i = max(bisect.bisect_left(ts, t) - 1, 0)
    r = rows[min(i, len(rows) - 1)]
    k = 1 if b == "old" else 4
    return float(r[k]) + float(r[k + 1]) + float(r[k + 2])
def curate_cpu(b):
    out = {}
    for line in open(f"{M}/cpu-{b}.tsv"):
        p = line.rstrip("\n").split("\t")
        if len(p) < 6 or p[0].startswith("Command"): continue
        out[p[0]] = out.get(p[0], 0) + float(p[3]) + float(p[4])
    return out
def verdicts(b, ids):
    env = {"DOCKER_HOST": f"unix://{M}/m53{b}/docker.sock", "PATH": "/usr/bin:/bin"}
    tasks = {t["id"]: t for t in json.loads(subprocess.run([f"{M}/curate-new" if b == "new" else f"{M}/curate-old.keep", "list", "--json"], cwd=f"{M}/ws-{b}", capture_output=True, text=True, env=env).stdout)}
    runs = json.loads(subprocess.run([f"{M}/curate-new" if b == "new" else f"{M}/curate-old.keep", "runs", "--json"], cwd=f"{M}/ws-{b}", capture_output=True, text=True, env=env).stdout or "[]")
    gold = {}
    for r in runs:  # newest first
        if r["mode"] == "gold" and r["task_id"] not in gold: gold[r["task_id"]] = r
    out = {}
    for i in ids:
        t = tasks.get(i, {})
        g = gold.get(i, {})
        cls = (t.get("failure") or {}).get("class", "")
        out[i] = (t.get("status", "?"), cls, len(g.get("fail_to_pass") or []), len(g.get("pass_to_pass") or []))
    return out
res = {}
for b in ("old", "new"):
    mk, cc = marks(b), curate_cpu(b)
    for repo, m in mk.items():
        if "end" not in m: continue
        s, e = float(m["start"]), float(m["end"])
        ids = m.get("ids", "").split()
        if not ids: continue  # no qualifying PR: replaced, per the protocol
        v = verdicts(b, ids)
        cpu = engine_at(b, e) - engine_at(b, s) + cc.get(repo, 0)
        res.setdefault(repo, {})[b] = dict(wall=e - s, cpu=cpu, valid=sum(1 for x in v.values() if x[0] == "valid"), v=v)
print("| repository | PRs | valid old/new | machine CPU-s old | new | per valid task old | new | ratio | wall s old | new |")
print("|---|---|---|---|---|---|---|---|---|---|")
po, pn, diffs = [], [], []
for repo, r in res.items():
    if "old" not in r or "new" not in r: continue
    o, n = r["old"], r["new"]
    pvo = o["cpu"] / o["valid"] if o["valid"] else None
    pvn = n["cpu"] / n["valid"] if n["valid"] else None
    if pvo: po.append(pvo)
    if pvn: pn.append(pvn)
    f = lambda x: f"{x:.0f}" if x is not None else "-"
    ratio = f"{pvn / pvo:.2f}" if pvo and pvn else "-"
    print(f"| {repo} | {len(o['v'])} | {o['valid']}/{n['valid']} | {o['cpu']:.0f} | {n['cpu']:.0f} | {f(pvo)} | {f(pvn)} | {ratio} | {o['wall']:.0f} | {n['wall']:.0f} |")
    for i in o["v"]:
        if o["v"][i] != n["v"].get(i):
            diffs.append(f"{i}: old {o['v'][i]} new {n['v'].get(i)}")
for repo, r in res.items():
    if "new" in r and "old" not in r:
        n = r["new"]
        print(f"new only (the previous binary's run is next session's): {repo}: {len(n['v'])} PRs, {n['valid']} valid, {n['cpu']:.0f} CPU-s, {n['cpu'] / n['valid']:.0f} per valid task" if n['valid'] else f"new only: {repo}: {len(n['v'])} PRs, 0 valid, {n['cpu']:.0f} CPU-s")
tot = lambda b: (sum(r[b]["cpu"] for r in res.values() if "old" in r and "new" in r), sum(r[b]["valid"] for r in res.values() if "old" in r and "new" in r))
(co, vo), (cn, vn) = tot("old"), tot("new")
print(f"\npooled: old {co:.0f} CPU-s / {vo} valid = {co / max(vo, 1):.0f}; new {cn:.0f} / {vn} = {cn / max(vn, 1):.0f}; ratio {(cn / max(vn, 1)) / (co / max(vo, 1)):.2f}")
if po and pn: print(f"median per valid task across repositories: old {statistics.median(po):.0f}, new {statistics.median(pn):.0f}")
print("\nverdict differences (status, class, F2P, P2P):")
for d in diffs: print("  " + d)
