#!/bin/bash
echo "applying fix.patch"
echo "error: patch does not apply" >&2
exit 1
