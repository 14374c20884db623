#!/bin/bash
# The reference solution is the upstream PR; it is applied by the image.
cd /go/src/k8s.io/kubernetes && git checkout solution
