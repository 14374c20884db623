#!/usr/bin/env bash
# engine.sh NAME OCTET: a second Docker engine at /tmp/m53/NAME/docker.sock with
# bridge br-NAME on 10.OCTET.0.1/24, networks from 10.OCTET.0.0/16, containers
# under the cgroup parent NAME, NAT and forwarding for 10.OCTET.0.0/16.
set -euo pipefail
name=$1; oct=$2; d=/tmp/m53/$name; mkdir -p $d
br=br-$name
ip link show $br >/dev/null 2>&1 || { ip link add $br type bridge; ip addr add 10.$oct.0.1/24 dev $br; ip link set $br up; }
iptables -t nat -C POSTROUTING -s 10.$oct.0.0/16 ! -d 10.$oct.0.0/16 -j MASQUERADE 2>/dev/null || iptables -t nat -A POSTROUTING -s 10.$oct.0.0/16 ! -d 10.$oct.0.0/16 -j MASQUERADE
iptables -C DOCKER-USER -s 10.$oct.0.0/16 -j ACCEPT 2>/dev/null || iptables -I DOCKER-USER -s 10.$oct.0.0/16 -j ACCEPT
iptables -C DOCKER-USER -d 10.$oct.0.0/16 -j ACCEPT 2>/dev/null || iptables -I DOCKER-USER -d 10.$oct.0.0/16 -j ACCEPT
setsid /usr/sbin/dockerd --data-root /var/lib/docker-$name --exec-root /run/docker-$name \
  --pidfile $d/docker.pid -H unix://$d/docker.sock --bridge=$br --iptables=false --ip6tables=false --ip-masq=false \
  --default-address-pool base=10.$oct.0.0/16,size=24 --cgroup-parent=$name >$d/dockerd.log 2>&1 </dev/null &
for i in $(seq 60); do docker -H unix://$d/docker.sock info >/dev/null 2>&1 && { echo "$name up"; exit 0; }; sleep 1; done
tail $d/dockerd.log; exit 1
