#!/bin/bash
cd /workspace/pytorch && git fetch origin pr-head && git checkout pr-head
