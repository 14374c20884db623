#!/bin/bash
. /tests/lib.sh
start
pass_if test "$(pwd)" = /work -a "$(cat /work/two 2>/dev/null)" = done
