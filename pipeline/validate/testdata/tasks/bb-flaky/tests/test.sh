#!/bin/bash
mkdir -p /logs/verifier; rm -f /logs/verifier/reward.*; echo 0 > /logs/verifier/reward.txt
echo "1..1"
# A coin flip: real flakiness (timing, ordering) looks like this from outside.
if [ "$(cat /app/value)" = fixed ] && [ $(( $(od -An -N1 -tu1 /dev/urandom) % 2 )) -eq 0 ]; then
  echo "ok 1 - value is fixed"
  echo 1 > /logs/verifier/reward.txt
else
  echo "not ok 1 - value is fixed"
fi
