# Samples each measured engine's machine time every 0.25 s; writes cumulative
# CPU seconds every 5 s: engine processes (dockerd + containerd, with reaped
# children), its containers' cgroups, its shims.
import os, re, time, glob
M = "/tmp/m53"; TCK = os.sysconf("SC_CLK_TCK")
def stat(pid):
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return int(f[1]), (int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])) / TCK  # ppid, cpu
    except Exception:
        return None, None
seen_cg = {}   # cgroup dir -> max usage s (new binary's own parents)
shim = {}      # pid -> (engine, cpu)
curate_pids = set()
out = open(f"{M}/sample.tsv", "a")
last = 0
while True:
    procs = {}
    for p in os.listdir("/proc"):
        if not p.isdigit(): continue
        try:
            cmd = open(f"/proc/{p}/cmdline", "rb").read().replace(b"\0", b" ")
        except Exception:
            continue
        procs[int(p)] = cmd
    eng = {}
    for b in ("old", "new"):
        try: dpid = int(open(f"{M}/m53{b}/docker.pid").read())
        except Exception: continue
        cpu = stat(dpid)[1] or 0
        for pid, cmd in procs.items():
            if stat(pid)[0] == dpid: cpu += stat(pid)[1] or 0   # its containerd
            if b"containerd-shim" in cmd and f"docker-m53{b}".encode() in cmd:
                c = stat(pid)[1]
                if c is not None: shim[pid] = (b, max(c, shim.get(pid, (b, 0))[1]))
        eng[b] = cpu
    for pid, cmd in procs.items():
        if cmd.startswith(f"{M}/curate-new ".encode()): curate_pids.add(pid)
    for d in glob.glob("/sys/fs/cgroup/cpuacct/curate-*-*-*"):
        m = re.match(r".*/curate-(run|build)-(\d+)-\d+$", d)
        if m and int(m.group(2)) in curate_pids:
            try: seen_cg[d] = max(seen_cg.get(d, 0), int(open(d + "/cpuacct.usage").read()) / 1e9)
            except Exception: pass
    now = time.time()
    if now - last >= 5:
        last = now
        cg = {b: int(open(f"/sys/fs/cgroup/cpuacct/m53{b}/cpuacct.usage").read()) / 1e9 if os.path.exists(f"/sys/fs/cgroup/cpuacct/m53{b}/cpuacct.usage") else 0 for b in ("old", "new")}
        sh = {b: sum(c for e, c in shim.values() if e == b) for b in ("old", "new")}
        own = sum(seen_cg.values())
        out.write(f"{now:.1f}\t{eng.get('old',0):.2f}\t{cg['old']:.2f}\t{sh['old']:.2f}\t{eng.get('new',0):.2f}\t{cg['new'] + own:.2f}\t{sh['new']:.2f}\n"); out.flush()
    time.sleep(0.25)
