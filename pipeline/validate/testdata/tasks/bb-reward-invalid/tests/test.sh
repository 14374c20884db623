#!/bin/bash
mkdir -p /logs/verifier
echo abc > /logs/verifier/reward.txt
