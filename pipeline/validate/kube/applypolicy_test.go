package kube

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/pipeline/validate"
	"curate/pipeline/validate/kube/kubetest"
)

// Applying a run's NetworkPolicy again (a retried create, a changed
// egress_proxy) leaves one policy with the last spec, not an error; the
// run's delete removes it.
func TestApplyPolicyIsIdempotent(t *testing.T) {
	c := kubetest.Require(t)
	r, err := Open(Config{Kubeconfig: c.Kubeconfig, Namespace: c.Namespace, Registry: c.Registry}, nil, "kube-test-"+t.Name())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	j := &jobRun{r: r, name: "curate-np-twice", spec: validate.ExecSpec{}}
	for _, proxy := range []string{"10.0.0.5:3128", "10.0.0.5:3128", "10.0.0.6:8080"} {
		j.net = runNetwork{label: networkAllowlist, proxy: proxy}
		if err := j.applyPolicy(ctx); err != nil {
			t.Fatalf("apply with %s: %v", proxy, err)
		}
	}
	nps, err := c.CS.NetworkingV1().NetworkPolicies(c.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil || len(nps.Items) != 1 {
		t.Fatalf("%v policies after three applies (%v), want 1", len(nps.Items), err)
	}
	if got := nps.Items[0].Spec.Egress[0].To[0].IPBlock.CIDR; got != "10.0.0.6/32" {
		t.Errorf("egress to %s, want the last apply's 10.0.0.6/32", got)
	}
	if err := r.deleteExec(ctx, j.name); err != nil {
		t.Fatal(err)
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left after delete: %v", left)
	}
}
