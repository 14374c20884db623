# The Rust repository's sample (issue 56): run from the folder holding
# mined-clap.json (`curate list --json` after the mine) and clones/clap.
# The peer's pre-2020 instances that curate mines fill none of the ten, so the
# sample is drawn from the mined pre-2020 PRs whose merge changes both a test file
# (tests/) and other Rust source.
import json, random, subprocess, re
peer = [941]
mined = {t['pr'] for t in json.load(open('mined-clap.json'))}
log = subprocess.run(['git', '-C', 'clones/clap', 'log', '--first-parent', '--format=%H %cs %s', 'HEAD'],
                     capture_output=True, text=True).stdout.splitlines()
def commit(p):
    return next((l for l in log if re.search(r'Merge pull request #%d\b|\(#%d\)\s*$' % (p, p), l)), None)
def code_and_tests(c):
    files = subprocess.run(['git', '-C', 'clones/clap', 'diff', '--name-only', c + '^1', c],
                           capture_output=True, text=True).stdout.split()
    tests = [f for f in files if f.startswith('tests/')]
    code = [f for f in files if f.endswith('.rs') and not f.startswith('tests/')]
    return bool(tests) and bool(code)
print('peer', peer, 'mined', [p for p in peer if p in mined])
q = sorted(p for p in mined if commit(p) and code_and_tests(commit(p)[:40]))
s = random.Random(56).sample(q, min(10, len(q)))
print('mined', len(mined), 'code+tests', len(q), q)
for i, p in enumerate(s):
    c = commit(p)
    print('dev' if i < 5 else 'held out', p, c[:8], c[41:51])
