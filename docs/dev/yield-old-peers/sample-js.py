# The third repository's sample (issue 56): run from the folder holding
# mined-serverless.json (`curate list --json` after the mine) and clones/serverless.
import json, random, subprocess, re
peer = [2434, 2842, 3457, 3799, 4794, 5571, 5602, 5775, 6827, 6869, 7031, 7102, 7374]
mined = {t['pr'] for t in json.load(open('mined-serverless.json'))}
q = sorted(p for p in peer if p in mined)
s = random.Random(56).sample(q, min(10, len(q)))
print('peer', len(peer), 'mined', len(q), q)
log = subprocess.run(['git', '-C', 'clones/serverless', 'log', '--first-parent', '--format=%H %cs %s', 'HEAD'],
                     capture_output=True, text=True).stdout.splitlines()
for i, p in enumerate(s):
    c = next((l for l in log if re.search(r'Merge pull request #%d\b|\(#%d\)$' % (p, p), l)), '?')
    print('dev' if i < 5 else 'held out', p, c[:8], c[41:51])
