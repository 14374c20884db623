#!/bin/bash
echo "forgot to write a reward"
