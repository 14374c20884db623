#!/usr/bin/env bash
# Tears down the cluster of start-kube.sh and leaves nothing: pods first
# (their containers end), then the kubelet, leftover containerd tasks,
# containerd, the control plane, etcd and the registry (by their pid
# files only); then mounts under the cluster's folder, the CNI bridge, the
# kubelet's cgroups, the sysctls it changed, the host paths it creates
# whatever its flags say, the pause image and the folder. The binaries' cache is kept.
set -uo pipefail
K="${CURATE_KUBE_DIR:-/var/tmp/curate-kube}"
[ -d "$K" ] || exit 0
cd "$K"
P="$K/pki"; S="$K/containerd/containerd.sock"
A=(--cacert "$P/ca.crt" --cert "$P/admin.crt" --key "$P/admin.key" -s -m 20)
api=https://127.0.0.1:6443
alive() { [ -f "run/$1.pid" ] && kill -0 "$(cat "run/$1.pid")" 2>/dev/null; }
stop() {
  if alive "$1"; then
    local p; p=$(cat "run/$1.pid")
    kill "$p"
    for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$p" 2>/dev/null && kill -9 "$p"
  fi
  rm -f "run/$1.pid"
}
if alive kubelet && alive apiserver; then
  for ns in $(curl "${A[@]}" $api/api/v1/namespaces | grep -o '"name": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' | sort -u); do
    curl "${A[@]}" -X DELETE "$api/apis/batch/v1/namespaces/$ns/jobs?propagationPolicy=Foreground" >/dev/null
    curl "${A[@]}" -X DELETE "$api/api/v1/namespaces/$ns/pods?gracePeriodSeconds=2" >/dev/null
  done
  for _ in $(seq 1 60); do
    [ "$(ctr -a "$S" -n k8s.io tasks ls -q 2>/dev/null | wc -l)" = 0 ] && break
    sleep 1
  done
fi
stop kubelet
if alive containerd; then
  for ns in $(ctr -a "$S" namespaces ls -q 2>/dev/null); do
    for t in $(ctr -a "$S" -n "$ns" tasks ls -q 2>/dev/null); do
      ctr -a "$S" -n "$ns" tasks kill -s KILL "$t" >/dev/null 2>&1; sleep 0.5
      ctr -a "$S" -n "$ns" tasks delete -f "$t" >/dev/null 2>&1
    done
  done
fi
stop containerd
# containerd's shims outlive it: end those of this cluster (their command
# names its socket).
for p in $(pgrep -f "containerd-shim.*-address $S" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
for c in scheduler controller-manager apiserver etcd registry; do stop "$c"; done
findmnt -rn -o TARGET | grep "^$K/" | sort -r | while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
ip link show curatek0 >/dev/null 2>&1 && ip link del curatek0
for d in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
  [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
done
if [ -f sysctl.before ]; then
  while read -r kv; do sysctl -q -w "$kv" >/dev/null 2>&1; done < sysctl.before
fi
rm -rf /var/log/pods /var/log/containers /var/lib/kubelet /run/containerd/runc/k8s.io /var/lib/cni
rmdir /run/containerd/runc /run/containerd/fifo 2>/dev/null
docker rmi -f curate-kube/pause:1 >/dev/null 2>&1
cd /
rm -rf "$K"
true
