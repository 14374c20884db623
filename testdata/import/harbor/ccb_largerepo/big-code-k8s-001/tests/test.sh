#!/bin/bash
mkdir -p /logs/verifier
rm -f /logs/verifier/reward.*
echo 0 > /logs/verifier/reward.txt
cd /app
if python -m pytest -rA tests/test_fix.py; then echo 1 > /logs/verifier/reward.txt; fi
