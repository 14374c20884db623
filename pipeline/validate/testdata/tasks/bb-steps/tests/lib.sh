# Shared by every step's test.sh: fail closed, then pass on a condition.
start() { mkdir -p /logs/verifier; rm -f /logs/verifier/reward.*; echo 0 > /logs/verifier/reward.txt; }
pass_if() { if "$@"; then echo "ok - $*"; echo 1 > /logs/verifier/reward.txt; else echo "not ok - $*"; fi; }
