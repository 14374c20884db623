#!/bin/bash
mkdir -p /logs/verifier; rm -f /logs/verifier/reward.*; echo 0 > /logs/verifier/reward.txt
cp /tests/calc_test.go /app/
cd /app
go test -json -count=1 ./...
if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; fi
