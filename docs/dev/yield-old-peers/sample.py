import json, random, subprocess, re, sys
peer = {
 'requests': [863,1142,1327,1339,1376,1537,1635,1724,1766,1921,1962,1963,2148,2153,2317,2674,2678,2931,3362,3718],
 'pytest': [5103,5221,5227,5262,5281,5356,5413,5495,5555,5631,5692,5787,5809,5840,5980,6116,6197,6202],
}
for n, ps in peer.items():
    mined = {t['pr'] for t in json.load(open('mined-%s.json' % n))}
    q = sorted(p for p in ps if p in mined)
    s = random.Random(56).sample(q, min(10, len(q)))
    print(n, 'peer', len(ps), 'mined', len(q), q)
    log = subprocess.run(['git','-C','clones/'+n,'log','--first-parent','--format=%H %cs %s','HEAD'],capture_output=True,text=True).stdout.splitlines()
    for i,p in enumerate(s):
        c = next((l for l in log if re.search(r'Merge pull request #%d\b|\(#%d\)$' % (p, p), l)), '?')
        print('dev' if i<5 else 'held out', p, c[:8], c[41:51])
