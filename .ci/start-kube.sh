#!/usr/bin/env bash
# Brings up a single-node Kubernetes cluster for the kubernetes engine's
# tests: etcd (Debian etcd-server), the control plane and a kubelet built
# from the k8s.io/kubernetes module once per version (build-kube.sh), a
# containerd instance of its own (Docker's is left alone), the bridge CNI
# plugin, and a registry (Debian docker-registry) on 127.0.0.1:5000 holding
# buildkitd's image (build-buildkit.sh).
# Everything lives under $CURATE_KUBE_DIR; .ci/stop-kube.sh removes it all.
# Prints the admin kubeconfig's path last. Idempotent: a cluster that
# answers is left as it is.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
K="${CURATE_KUBE_DIR:-/var/tmp/curate-kube}"
version="${CURATE_KUBE_VERSION:-v1.34.4}"
bin="${CURATE_KUBE_CACHE:-/var/cache/curate-kube}/$version/bin"
export PATH="/usr/local/go/bin:$PATH"
P="$K/pki"
A=(--cacert "$P/ca.crt" --cert "$P/admin.crt" --key "$P/admin.key")
t0=$(date +%s)
step() { echo "kube: $(( $(date +%s) - t0 ))s $*" >&2; }
if [ -f "$K/admin.kubeconfig" ] && [ "$(curl -s -m 3 "${A[@]}" https://127.0.0.1:6443/readyz 2>/dev/null)" = ok ]; then
  echo "$K/admin.kubeconfig"; exit 0
fi
need=()
command -v etcd >/dev/null 2>&1 || need+=(etcd-server)
command -v docker-registry >/dev/null 2>&1 || need+=(docker-registry)
[ -x /usr/lib/cni/bridge ] || need+=(containernetworking-plugins)
command -v containerd >/dev/null 2>&1 || need+=(containerd)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ ${#need[@]} -gt 0 ]; then
  echo "kube: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
bash "$here/build-kube.sh"
step "binaries ready"
# A half-started cluster of an earlier call goes first.
[ -d "$K" ] && bash "$here/stop-kube.sh" >/dev/null 2>&1 || true
# The node is named after the machine, whose name resolves to itself: the
# API server reaches the kubelet by that name (a loopback node IP leaves
# the node without addresses).
node=$(hostname | tr 'A-Z' 'a-z')
if ! getent hosts "$node" >/dev/null; then
  # CI runs as root on a throwaway machine: name it as this machine kind does.
  if [ -w /etc/hosts ]; then
    echo "kube: $node does not resolve; adding '127.0.0.1 $node' to /etc/hosts" >&2
    echo "127.0.0.1 $node" >> /etc/hosts
  fi
  if ! getent hosts "$node" >/dev/null; then
    echo "kube: this machine's name $node does not resolve (add it to /etc/hosts): the API server reaches the kubelet by it" >&2
    exit 1
  fi
fi
mkdir -p "$K"/{pki,run,logs,etcd,containerd/certs.d/127.0.0.1:5000,cni/net.d,registry,kubelet}
sysctl -a 2>/dev/null | grep -E '^(vm\.overcommit_memory|kernel\.panic|kernel\.panic_on_oops) ' | sed 's/ = /=/' > "$K/sysctl.before"

# Certificates: a CA, the API server's and kubelet's serving certificates,
# client certificates for each component and the admin.
(
  cd "$P"
  openssl genrsa -out ca.key 2048 2>/dev/null
  openssl req -x509 -new -nodes -key ca.key -subj "/CN=curate-kube-ca" -days 30 -out ca.crt 2>/dev/null
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
  mk() {
    openssl genrsa -out "$1.key" 2048 2>/dev/null
    openssl req -new -key "$1.key" -subj "$2" -out "$1.csr" 2>/dev/null
    printf '%b' "$3" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -out "$1.crt" -extfile "$1.ext" 2>/dev/null
  }
  server='extendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n'
  mk apiserver "/CN=kube-apiserver" "subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\n$server"
  mk kubelet-serving "/CN=$node" "subjectAltName=IP:127.0.0.1,DNS:$node,DNS:localhost\n$server"
  client='extendedKeyUsage=clientAuth\n'
  mk admin "/O=system:masters/CN=curate-admin" "$client"
  mk apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "$client"
  mk controller-manager "/CN=system:kube-controller-manager" "$client"
  mk scheduler "/CN=system:kube-scheduler" "$client"
  mk kubelet "/O=system:nodes/CN=system:node:$node" "$client"
)
b64() { base64 -w0 < "$1"; }
for n in admin controller-manager scheduler kubelet; do
  cat > "$K/$n.kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: curate-kube
  cluster: {server: "https://127.0.0.1:6443", certificate-authority-data: $(b64 "$P/ca.crt")}
users:
- name: $n
  user: {client-certificate-data: $(b64 "$P/$n.crt"), client-key-data: $(b64 "$P/$n.key")}
contexts:
- name: curate-kube
  context: {cluster: curate-kube, user: $n}
current-context: curate-kube
KC
done
step "certificates and kubeconfigs"

start() { # name command...: runs in the background, pid in run/name.pid
  local n=$1; shift
  setsid "$@" > "$K/logs/$n.log" 2>&1 < /dev/null &
  echo $! > "$K/run/$n.pid"
}
wait_for() { # what, seconds, test command...
  local what=$1 secs=$2; shift 2
  for _ in $(seq 1 $((secs * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "kube: $what did not come up in ${secs}s; log tail:" >&2
  tail -20 "$K/logs/$what.log" >&2 || true
  exit 1
}

start etcd etcd --name curate0 --data-dir "$K/etcd" \
  --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster curate0=http://127.0.0.1:2380
wait_for etcd 30 sh -c 'curl -s http://127.0.0.1:2379/health | grep -q true'
step "etcd"

start apiserver "$bin/kube-apiserver" --advertise-address=127.0.0.1 --bind-address=127.0.0.1 --secure-port=6443 \
  --etcd-servers=http://127.0.0.1:2379 --service-cluster-ip-range=10.96.0.0/16 --endpoint-reconciler-type=none \
  --client-ca-file="$P/ca.crt" --tls-cert-file="$P/apiserver.crt" --tls-private-key-file="$P/apiserver.key" \
  --kubelet-client-certificate="$P/apiserver-kubelet-client.crt" --kubelet-client-key="$P/apiserver-kubelet-client.key" \
  --kubelet-certificate-authority="$P/ca.crt" --kubelet-preferred-address-types=Hostname,InternalIP \
  --service-account-issuer=https://kubernetes.default.svc --service-account-key-file="$P/sa.pub" \
  --service-account-signing-key-file="$P/sa.key" \
  --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction,ResourceQuota \
  --allow-privileged=true
wait_for apiserver 90 sh -c "[ \"\$(curl -s ${A[*]} https://127.0.0.1:6443/readyz)\" = ok ]"
step "kube-apiserver"

cm="$K/controller-manager.kubeconfig"
start controller-manager "$bin/kube-controller-manager" --kubeconfig="$cm" --authentication-kubeconfig="$cm" \
  --authorization-kubeconfig="$cm" --bind-address=127.0.0.1 --leader-elect=false --use-service-account-credentials=true \
  --cluster-signing-cert-file="$P/ca.crt" --cluster-signing-key-file="$P/ca.key" --root-ca-file="$P/ca.crt" \
  --service-account-private-key-file="$P/sa.key" --service-cluster-ip-range=10.96.0.0/16
sc="$K/scheduler.kubeconfig"
start scheduler "$bin/kube-scheduler" --kubeconfig="$sc" --authentication-kubeconfig="$sc" \
  --authorization-kubeconfig="$sc" --bind-address=127.0.0.1 --leader-elect=false

cat > "$K/registry.yml" <<RG
version: 0.1
log: {level: warn}
storage:
  filesystem: {rootdirectory: $K/registry}
  delete: {enabled: true}
http:
  addr: 127.0.0.1:5000
RG
start registry docker-registry serve "$K/registry.yml"
wait_for registry 30 curl -sf http://127.0.0.1:5000/v2/

# The pause image (registry.k8s.io is out of reach): a static program
# built once and cached beside the binaries, in an image made each time.
pause="${bin%/bin}/pause"
[ -x "$pause" ] || (cd "$here/kube" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$pause" pause.go)
d=$(mktemp -d)
cp "$pause" "$d/pause"
printf 'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n' > "$d/Dockerfile"
docker build -q -t curate-kube/pause:1 --label curate.ci=kube "$d" >/dev/null 2>"$K/logs/pause-build.log" || { cat "$K/logs/pause-build.log" >&2; exit 1; }
rm -rf "$d"

cat > "$K/containerd/config.toml" <<CT
version = 2
root = "$K/containerd/root"
state = "$K/containerd/state"
oom_score = 0
[grpc]
  address = "$K/containerd/containerd.sock"
[ttrpc]
  address = "$K/containerd/containerd.sock.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""
[plugins]
  [plugins."io.containerd.internal.v1.opt"]
    path = "$K/containerd/opt"
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "curate-kube/pause:1"
    disable_apparmor = true
    restrict_oom_score_adj = true
    netns_mounts_under_state_dir = true
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/usr/lib/cni"
      conf_dir = "$K/cni/net.d"
    [plugins."io.containerd.grpc.v1.cri".containerd]
      snapshotter = "overlayfs"
      default_runtime_name = "runc"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
          SystemdCgroup = false
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = "$K/containerd/certs.d"
CT
printf 'server = "http://127.0.0.1:5000"\n\n[host."http://127.0.0.1:5000"]\n  capabilities = ["pull", "resolve"]\n' \
  > "$K/containerd/certs.d/127.0.0.1:5000/hosts.toml"
cat > "$K/cni/net.d/10-curate.conflist" <<CN
{"cniVersion": "1.0.0", "name": "curate-kube", "plugins": [
  {"type": "bridge", "bridge": "curatek0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.244.0.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}],
            "dataDir": "$K/cni/ipam"}},
  {"type": "loopback"}]}
CN
start containerd containerd --config "$K/containerd/config.toml"
S="$K/containerd/containerd.sock"
wait_for containerd 30 ctr -a "$S" version
docker save curate-kube/pause:1 | ctr -a "$S" -n k8s.io images import - >/dev/null
step "registry, containerd, pause image"
# buildkitd's image in the registry, for the tests of [kubernetes] builder =
# "buildkit" (each installs it into its namespace): built once per version.
bash "$here/build-buildkit.sh" >/dev/null
step "buildkitd image"

cat > "$K/kubelet.yaml" <<KL
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $P/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $P/kubelet-serving.crt
tlsPrivateKeyFile: $P/kubelet-serving.key
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://$S
podLogsDir: $K/logs/pods
containerLogMaxSize: 200Mi
resolvConf: /etc/resolv.conf
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
oomScoreAdj: 0
podPidsLimit: 4096
KL
# A PATH without /usr/sbin and /sbin: the kubelet then finds no iptables
# and leaves the host's firewall alone.
start kubelet env PATH=/usr/local/bin:/usr/bin:/bin "$bin/kubelet" --config="$K/kubelet.yaml" \
  --kubeconfig="$K/kubelet.kubeconfig" --root-dir="$K/kubelet" --v=1
node_ready() {
  curl -s "${A[@]}" "https://127.0.0.1:6443/api/v1/nodes/$node" | tr -d ' \n' | grep -q '"type":"Ready","status":"True"'
}
wait_for kubelet 120 node_ready
wait_for controller-manager 60 curl -sf "${A[@]}" https://127.0.0.1:6443/api/v1/namespaces/default/serviceaccounts/default
step "node Ready"
echo "$K/admin.kubeconfig"
