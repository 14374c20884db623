#!/usr/bin/env bash
# drive2.sh old|new N REPO...: over the repositories given (the run of 11:58 UTC:
# 3 samber/lo jd/tenacity pillarjs/path-to-regexp bitflags/bitflags apache/commons-cli
# michaelrsweet/mxml spf13/cast arrow-py/arrow validatorjs/validator.js
# rust-itertools/itertools apache/commons-codec yhirose/cpp-peglib), stopping
# before the next when $M/stop-old|new exists; the yield sequence of e2e/yield.go (mine --preset none,
# newest N PRs changing tests and code since 2024-01-01, env check, build,
# validate nop,oracle,gold at concurrency 2) for each clone, with the binary's
# own engine; each curate process's CPU (and its children's) from /usr/bin/time.
b=$1; n=$2; M=/tmp/m53; bin=$M/curate-$b; ws=$M/ws-$b
export DOCKER_HOST=unix://$M/m53$b/docker.sock
log=$M/drive-$b.log; marks=$M/marks-$b.tsv; cpu=$M/cpu-$b.tsv
mkdir -p $ws; cd $ws; [ -f curate.toml ] || $bin init . >>$log 2>&1
if [ $b = new ] && ! grep -q '^\[network\]' curate.toml; then printf '\n[network]\npackage_cache = "%s"\n' $M/pkgcache >> curate.toml; fi
run() { # run REPO STEP args...: one curate command, its rusage appended to cpu
  local repo=$1 step=$2; shift 2
  echo "$(date -u +%T) $repo $step: $*" >>$log
  /usr/bin/time -f "$repo\t$step\t%e\t%U\t%S\t%x" -a -o $cpu $bin "$@" >>$log 2>&1
}
shift 2
for repo in "$@"; do
  if [ -e $M/stop-$b ]; then echo "$(date -u +%T) stopped before $repo ($M/stop-$b)" >>$log; break; fi
  clone=$M/clones/${repo/\//+}
  printf '%s\tstart\t%s\n' $repo "$(date +%s.%N)" >>$marks
  /usr/bin/time -f "$repo\tmine\t%e\t%U\t%S\t%x" -a -o $cpu $bin mine git $clone --preset none --json --since 2024-01-01 > $M/mined-$b-${repo/\//+}.json 2>>$log
  ids=$(python3 $M/pick.py $n < $M/mined-$b-${repo/\//+}.json)
  echo "$(date -u +%T) $repo ids: $ids" >>$log
  printf '%s\tids\t%s\n' $repo "$ids" >>$marks
  if [ -n "$ids" ]; then
    run $repo envcheck env check $repo
    run $repo build build $ids
    built=$($bin list --json 2>/dev/null | python3 -c '
import json,sys; ids=set(sys.argv[1:]); print(" ".join(t["id"] for t in json.load(sys.stdin) if t["id"] in ids and t.get("task_dir")))' $ids)
    echo "$(date -u +%T) $repo built: $built" >>$log
    [ -n "$built" ] && run $repo validate validate --mode nop,oracle,gold --concurrency 2 $built
  fi
  printf '%s\tend\t%s\n' $repo "$(date +%s.%N)" >>$marks
done
echo "$(date -u +%T) done" >>$log
