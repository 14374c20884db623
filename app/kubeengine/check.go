package kubeengine

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/workspace"
)

// CheckLine is one finding of Check.
type CheckLine struct {
	What string `json:"what"`
	OK   bool   `json:"ok"`
	Note string `json:"note"`
}

// Check says whether the workspace's cluster can take validation runs:
// the API answers, the namespace exists, the registry answers, and what
// the runs' NetworkPolicies depend on.
func Check(ctx context.Context, ws *workspace.Workspace) ([]CheckLine, error) {
	r, err := Open(ctx, ws, nil)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []CheckLine
	cs := r.Clientset()
	v, err := cs.Discovery().ServerVersion()
	if err != nil {
		out = append(out, CheckLine{"api", false, err.Error()})
	} else {
		out = append(out, CheckLine{"api", true, r.Host() + " answers, Kubernetes " + v.GitVersion})
	}
	if _, err := cs.CoreV1().Namespaces().Get(ctx, r.Namespace(), metav1.GetOptions{}); err != nil {
		out = append(out, CheckLine{"namespace", false, fmt.Sprintf("%s: %v", r.Namespace(), err)})
	} else {
		out = append(out, CheckLine{"namespace", true, r.Namespace()})
	}
	reg := ws.Config.Kube.Registry
	host := strings.SplitN(reg, "/", 2)[0]
	hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ok, note := registryAnswers(hctx, host)
	out = append(out, CheckLine{"registry", ok, reg + ": " + note})
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err == nil {
		ready := 0
		for _, n := range nodes.Items {
			for _, c := range n.Status.Conditions {
				if c.Type == "Ready" && c.Status == "True" {
					ready++
				}
			}
		}
		out = append(out, CheckLine{"nodes", ready > 0, fmt.Sprintf("%d of %d Ready", ready, len(nodes.Items))})
	}
	out = append(out, CheckLine{"network policy", true,
		"each run but task_network = \"public\" gets a NetworkPolicy (deny all, or egress to [kubernetes] egress_proxy only); only a CNI that enforces NetworkPolicies (Calico, Cilium, ...) keeps those pods fenced - the plain bridge plugin does not"})
	return out, nil
}

// registryAnswers asks the registry's API root, over HTTPS then HTTP.
func registryAnswers(ctx context.Context, host string) (bool, string) {
	var last error
	for _, scheme := range []string{"https", "http"} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, scheme+"://"+host+"/v2/", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			last = err
			continue
		}
		resp.Body.Close()
		// 401: it answers and wants credentials (the engine's login).
		if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusUnauthorized {
			return true, fmt.Sprintf("answers over %s (%s)", scheme, resp.Status)
		}
		return false, fmt.Sprintf("%s answered %s", scheme, resp.Status)
	}
	return false, fmt.Sprintf("does not answer: %v", last)
}
