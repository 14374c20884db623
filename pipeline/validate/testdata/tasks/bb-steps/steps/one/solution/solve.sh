#!/bin/bash
echo done > one
