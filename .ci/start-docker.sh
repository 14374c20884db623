#!/usr/bin/env bash
# Makes sure a Docker engine answers: installs Debian's docker.io when the
# daemon is missing and starts dockerd in the background. Idempotent.
set -euo pipefail
if docker info >/dev/null 2>&1; then
  exit 0
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "ci: installing docker.io" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq docker.io >/dev/null
fi
echo "ci: starting dockerd" >&2
setsid /usr/sbin/dockerd >/tmp/dockerd.log 2>&1 < /dev/null &
for i in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    echo "ci: docker engine up after ${i}s" >&2
    exit 0
  fi
  sleep 1
done
echo "ci: dockerd did not answer in 60s; last log lines:" >&2
tail -20 /tmp/dockerd.log >&2
exit 1
