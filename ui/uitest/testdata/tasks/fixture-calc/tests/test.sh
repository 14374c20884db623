#!/bin/sh
python -m pytest -rA tests/test_calc.py
