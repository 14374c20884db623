#!/usr/bin/env bash
# drive.sh before|after REPO...: yield sequence, newest 1 qualifying PR since 2023-01-01
b=$1; shift; M=/tmp/h53c; bin=$M/curate-$b; ws=$M/ws-$b
log=$M/drive-$b.log; cpu=$M/cpu-$b.tsv
mkdir -p $ws $M/clones; cd $ws; [ -f curate.toml ] || $bin init . >>$log 2>&1
if ! grep -q '^\[network\]' curate.toml; then printf '\n[network]\npackage_cache = "%s"\n' $M/pkgcache >> curate.toml; fi
run() { local repo=$1 step=$2; shift 2
  echo "$(date -u +%T) $repo $step: $*" >>$log
  /usr/bin/time -f "$repo\t$step\t%e\t%U\t%S\t%x" -a -o $cpu nice -n 10 $bin "$@" >>$log 2>&1; }
for repo in "$@"; do
  clone=$M/clones/${repo/\//+}
  [ -d $clone ] || { git clone -q /work/shared/repos/${repo/\//+}.bundle $clone && git -C $clone remote set-url origin https://github.com/$repo.git; }
  if [ -f $M/ids-${repo/\//+} ]; then ids=$(cat $M/ids-${repo/\//+}); else
    $bin mine git $clone --preset none --json --since 2023-01-01 > $M/mined-$b-${repo/\//+}.json 2>>$log
    ids=$(python3 /work/wt/h53c/docs/dev/throughput-scripts/pick.py 1 < $M/mined-$b-${repo/\//+}.json); echo "$ids" > $M/ids-${repo/\//+}; fi
  if [ "$b" != before ]; then $bin mine git $clone --preset none --json --since 2023-01-01 >/dev/null 2>>$log; fi
  echo "$(date -u +%T) $repo ids: $ids" >>$log
  [ -n "$ids" ] || continue
  run $repo envcheck env check $repo
  run $repo build build $ids
  run $repo validate validate --mode nop,oracle,gold --concurrency 2 $ids
done
echo "$(date -u +%T) done" >>$log
