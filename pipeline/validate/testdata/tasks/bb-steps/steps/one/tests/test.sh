#!/bin/bash
. /tests/lib.sh
start
pass_if test "$(pwd)" = /work -a "$(cat /work/one 2>/dev/null)" = done
