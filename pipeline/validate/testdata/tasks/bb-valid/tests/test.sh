#!/bin/bash
mkdir -p /logs/verifier; rm -f /logs/verifier/reward.*; echo 0 > /logs/verifier/reward.txt
echo "1..2"
echo "ok 1 - app exists"
if [ "$(cat /app/value)" = fixed ]; then
  echo "ok 2 - value is fixed"
  echo 1 > /logs/verifier/reward.txt
else
  echo "not ok 2 - value is fixed"
fi
