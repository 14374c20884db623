#!/bin/bash
echo done > two
