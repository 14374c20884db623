#!/bin/bash
cd /app && patch -p1 < /solution/fix.patch
