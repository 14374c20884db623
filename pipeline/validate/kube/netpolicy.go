package kube

import (
	"context"
	"fmt"
	"net"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"curate/pipeline/validate"
)

// The values of LabelNetwork: what a run's pod may reach.
const (
	networkNone      = "none"      // nothing: a NetworkPolicy denies all
	networkAllowlist = "allowlist" // the egress proxy only
	networkPublic    = "public"    // the pod network, no policy
)

// enforcedBy is said with every policy: the API server stores a
// NetworkPolicy whatever the CNI, and only some CNIs enforce it.
const enforcedBy = "enforced only by a CNI that implements NetworkPolicy (Calico, Cilium, ...), not by the plain bridge plugin"

// runNetwork is what a run's pod may reach and what its log says of it.
type runNetwork struct {
	label string
	proxy string // "IP:port" the pod may reach (allowlist)
	note  string
}

// network decides a run's network the way the Docker engine does
// ([docker] task_network, validate/tasknet.go). There is no curate
// proxy in the cluster: allowlist needs [kubernetes] egress_proxy, and
// without one the pod gets no network. DNS is denied too: a pod with no
// network needs none, and one behind the proxy sends it the names.
func (r *Runner) network(cfg *validate.TaskConfig, oracle bool) runNetwork {
	asks := cfg != nil && (cfg.NetworkMode == "public" || (oracle && cfg.AgentNetworkMode == "public"))
	if !asks {
		return runNetwork{label: networkNone, note: "curate: network: none: a NetworkPolicy denies the pod's egress and ingress, " + enforcedBy}
	}
	mode := r.cfg.TaskNetwork
	if mode == "" {
		mode = validate.TaskNetworkAllowlist
	}
	asked := fmt.Sprintf("curate: network: the task asks for the network; [docker] task_network = %q: ", mode)
	switch {
	case mode == validate.TaskNetworkPublic:
		return runNetwork{label: networkPublic, note: asked + "the cluster's pod network, no NetworkPolicy"}
	case mode == validate.TaskNetworkAllowlist && r.cfg.EgressProxy != "":
		return runNetwork{label: networkAllowlist, proxy: r.cfg.EgressProxy,
			note: asked + "egress only to the proxy " + r.cfg.EgressProxy + " ([kubernetes] egress_proxy) by a NetworkPolicy, " + enforcedBy}
	case mode == validate.TaskNetworkAllowlist:
		return runNetwork{label: networkNone, note: asked + "no [kubernetes] egress_proxy, so no network: a NetworkPolicy denies the pod's egress and ingress, " + enforcedBy}
	}
	return runNetwork{label: networkNone, note: asked + "no network: a NetworkPolicy denies the pod's egress and ingress, " + enforcedBy}
}

// proxyEnv sends the pod's clients through the proxy.
func (n runNetwork) proxyEnv() []corev1.EnvVar {
	if n.proxy == "" {
		return nil
	}
	u := "http://" + n.proxy
	var env []corev1.EnvVar
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
		env = append(env, corev1.EnvVar{Name: k, Value: u})
	}
	for _, k := range []string{"NO_PROXY", "no_proxy"} {
		env = append(env, corev1.EnvVar{Name: k, Value: "localhost,127.0.0.1,::1"})
	}
	return env
}

// policy is the run's NetworkPolicy, selecting its pod by LabelExec; nil
// for the public network.
func (j *jobRun) policy() (*networkingv1.NetworkPolicy, error) {
	if j.net.label == networkPublic {
		return nil, nil
	}
	spec := networkingv1.NetworkPolicySpec{
		PodSelector: metav1.LabelSelector{MatchLabels: map[string]string{LabelExec: j.name}},
		PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeEgress, networkingv1.PolicyTypeIngress},
	}
	if j.net.proxy != "" {
		host, port, err := net.SplitHostPort(j.net.proxy)
		p, perr := strconv.Atoi(port)
		ip := net.ParseIP(host)
		if err != nil || perr != nil || ip == nil {
			return nil, fmt.Errorf("kubernetes.egress_proxy %q: want IP:port", j.net.proxy)
		}
		bits := "/32"
		if ip.To4() == nil {
			bits = "/128"
		}
		tcp := corev1.ProtocolTCP
		dport := intstr.FromInt32(int32(p))
		spec.Egress = []networkingv1.NetworkPolicyEgressRule{{
			To:    []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: ip.String() + bits}}},
			Ports: []networkingv1.NetworkPolicyPort{{Protocol: &tcp, Port: &dport}},
		}}
	}
	return &networkingv1.NetworkPolicy{ObjectMeta: j.meta(j.name), Spec: spec}, nil
}

// applyPolicy creates the run's NetworkPolicy, or updates one of the
// same name (a retried create): applying twice gives the same object.
func (j *jobRun) applyPolicy(ctx context.Context) error {
	np, err := j.policy()
	if err != nil || np == nil {
		return err
	}
	nps := j.r.cs.NetworkingV1().NetworkPolicies(j.r.cfg.Namespace)
	_, err = nps.Create(ctx, np, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		var old *networkingv1.NetworkPolicy
		if old, err = nps.Get(ctx, np.Name, metav1.GetOptions{}); err == nil {
			old.Labels, old.Spec = np.Labels, np.Spec
			_, err = nps.Update(ctx, old, metav1.UpdateOptions{})
		}
	}
	if err != nil {
		return ctxOr(ctx, validate.Infra(fmt.Errorf("apply NetworkPolicy %s: %w", np.Name, err)))
	}
	return nil
}
