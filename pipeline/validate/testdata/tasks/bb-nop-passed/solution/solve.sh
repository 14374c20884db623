#!/bin/bash
echo fixed > /app/value
