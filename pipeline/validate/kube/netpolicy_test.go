package kube_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube"
	"curate/pipeline/validate/logstream"
)

// seen is what was in the namespace while a run's pod ran.
type seen struct {
	policies []networkingv1.NetworkPolicy
	podEnv   map[string]string
	selected bool // every policy's podSelector matches the task pod's labels
}

// runAsking runs a task whose test sleeps, asking for the network or not,
// on a runner with task_network and egress_proxy, and reads the
// namespace's NetworkPolicies and the pod while it runs.
func runAsking(t *testing.T, s *setup, asks bool, taskNetwork, proxy string) (seen, string) {
	t.Helper()
	dir := task(t, "bb-valid", s.busybox)
	toml := "schema_version = \"1.0\"\n[task]\nname = \"fixtures/net\"\n[verifier]\ntimeout_sec = 60\n[environment]\ncpus = 1\nmemory_mb = 256\n"
	if asks {
		toml += "allow_internet = true\n"
	}
	script := "#!/bin/bash\nmkdir -p /logs/verifier\necho suite-started\nsleep 5\necho 1 > /logs/verifier/reward.txt\n"
	if os.WriteFile(filepath.Join(dir, "task.toml"), []byte(toml), 0o644) != nil ||
		os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(script), 0o755) != nil {
		t.Fatal("write the task")
	}
	k, err := kube.Open(kube.Config{Kubeconfig: s.cluster.Kubeconfig, Namespace: s.cluster.Namespace, Registry: s.cluster.Registry,
		TaskNetwork: taskNetwork, EgressProxy: proxy}, s.docker, "kube-test-"+t.Name())
	if err != nil {
		t.Fatal(err)
	}
	v := validator(t, k)
	var started atomic.Bool
	v.OnStart = func(r *pipeline.Run, b *logstream.Broadcaster) { watchFor(b, "suite-started", &started) }
	var got seen
	done := make(chan struct{})
	go func() {
		defer close(done)
		for deadline := time.Now().Add(2 * time.Minute); !started.Load(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				return
			}
		}
		ctx, ns := context.Background(), s.cluster.Namespace
		nps, err := s.cluster.CS.NetworkingV1().NetworkPolicies(ns).List(ctx, metav1.ListOptions{})
		pods, perr := s.cluster.CS.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "curate.managed=true"})
		if err != nil || perr != nil || len(pods.Items) != 1 {
			t.Errorf("list policies and pods: %v, %v", err, perr)
			return
		}
		pod := pods.Items[0]
		got.policies, got.podEnv, got.selected = nps.Items, map[string]string{}, true
		for _, e := range pod.Spec.Containers[0].Env {
			got.podEnv[e.Name] = e.Value
		}
		for _, np := range nps.Items {
			sel, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
			if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.Labels)) {
				got.selected = false
			}
		}
	}()
	run := v.Validate(context.Background(), []validate.Job{{TaskID: "net", TaskDir: dir, Mode: "oracle"}})[0]
	<-done
	log := logOf(t, run)
	if run.Outcome != pipeline.OutcomeOK {
		t.Fatalf("outcome %s (%s)\n%s", run.Outcome, run.Detail, log)
	}
	left, err := s.cluster.CS.NetworkingV1().NetworkPolicies(s.cluster.Namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil || len(left.Items) != 0 {
		t.Errorf("NetworkPolicies left after the run: %v %v", left, err)
	}
	return got, log
}

// What a run's pod may reach is a NetworkPolicy selecting it, as the
// Docker engine's task_network decides (issue 51: a task asking for the
// network got the whole pod network under every task_network). The CI
// cluster's bridge CNI does not enforce policies: this checks the objects
// the API server holds while the pod runs, and that none is left.
func TestTaskNetworkPolicy(t *testing.T) {
	s := start(t)
	denyAll := networkingv1.NetworkPolicySpec{PolicyTypes: []networkingv1.PolicyType{"Egress", "Ingress"}}
	for _, c := range []struct {
		name, taskNetwork, proxy string
		asks                     bool
		egress                   string // "" = no policy; "deny" = no egress rule; else the one allowed CIDR:port
		log                      string
	}{
		{"offline task", "", "", false, "deny", "curate: network: none: a NetworkPolicy denies"},
		{"allowlist without a proxy", "", "", true, "deny", `task_network = "allowlist": no [kubernetes] egress_proxy, so no network`},
		{"allowlist with a proxy", "allowlist", "10.0.0.5:3128", true, "10.0.0.5/32:3128", "egress only to the proxy 10.0.0.5:3128"},
		{"none", "none", "10.0.0.5:3128", true, "deny", `task_network = "none": no network`},
		{"public", "public", "", true, "", `task_network = "public": the cluster's pod network, no NetworkPolicy`},
	} {
		got, log := runAsking(t, s, c.asks, c.taskNetwork, c.proxy)
		if !strings.Contains(log, c.log) || (c.egress != "" && !strings.Contains(log, "enforced only by a CNI that implements NetworkPolicy")) {
			t.Errorf("%s: the run log does not say which network applied (want %q):\n%s", c.name, c.log, log)
		}
		if c.egress == "" {
			if len(got.policies) != 0 {
				t.Errorf("%s: policies %+v, want none", c.name, got.policies)
			}
			continue
		}
		if len(got.policies) != 1 || !got.selected {
			t.Errorf("%s: %d policies while the pod ran (want 1 selecting the pod: %v)", c.name, len(got.policies), got.selected)
			continue
		}
		spec := got.policies[0].Spec
		if !reflect.DeepEqual(spec.PolicyTypes, denyAll.PolicyTypes) || len(spec.Ingress) != 0 {
			t.Errorf("%s: policy types %v, ingress %v", c.name, spec.PolicyTypes, spec.Ingress)
		}
		egress := "deny"
		if len(spec.Egress) == 1 && len(spec.Egress[0].To) == 1 && spec.Egress[0].To[0].IPBlock != nil && len(spec.Egress[0].Ports) == 1 {
			egress = spec.Egress[0].To[0].IPBlock.CIDR + ":" + spec.Egress[0].Ports[0].Port.String()
		} else if len(spec.Egress) != 0 {
			egress = "unexpected"
		}
		if egress != c.egress {
			t.Errorf("%s: egress %s (%+v), want %s", c.name, egress, spec.Egress, c.egress)
		}
		if want := map[bool]string{true: "http://" + c.proxy, false: ""}[strings.Contains(c.egress, "/")]; got.podEnv["HTTPS_PROXY"] != want {
			t.Errorf("%s: the pod's HTTPS_PROXY is %q, want %q", c.name, got.podEnv["HTTPS_PROXY"], want)
		}
	}
}
