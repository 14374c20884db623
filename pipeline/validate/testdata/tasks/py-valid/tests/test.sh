#!/bin/bash
mkdir -p /logs/verifier; rm -f /logs/verifier/reward.*; echo 0 > /logs/verifier/reward.txt
cd /tests
PYTHONPATH=/app python3 -m pytest -rA -p no:cacheprovider test_calc.py
if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; fi
