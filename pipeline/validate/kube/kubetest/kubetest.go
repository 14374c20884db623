// Package kubetest gives tests a namespace on a real Kubernetes cluster
// (the one .ci/start-kube.sh brings up), or skips them when none answers;
// CURATE_REQUIRE_KUBE=1 (CI) turns the skip into a failure.
package kubetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// DefaultKubeconfig is where .ci/start-kube.sh writes the admin kubeconfig.
const DefaultKubeconfig = "/var/tmp/curate-kube/admin.kubeconfig"

// Registry is the CI cluster's registry.
const Registry = "127.0.0.1:5000"

// BuildKitImage is buildkitd's image .ci/build-buildkit.sh puts in the CI
// registry (start-kube.sh calls it).
const BuildKitImage = Registry + "/curate-buildkitd:v0.34.2"

// Cluster is a test's namespace on a cluster.
type Cluster struct {
	Kubeconfig string
	Namespace  string
	Registry   string
	CS         kubernetes.Interface
}

// Kubeconfig is CURATE_KUBECONFIG, else DefaultKubeconfig.
func Kubeconfig() string {
	if p := os.Getenv("CURATE_KUBECONFIG"); p != "" {
		return p
	}
	return DefaultKubeconfig
}

// Answers says whether the cluster of Kubeconfig() is ready (nil) or why
// not, for tests that leave a part out rather than skip.
func Answers() error {
	cs, err := client(Kubeconfig())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body, err := cs.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
	if err == nil && string(body) != "ok" {
		err = fmt.Errorf("not ready: %s", body)
	}
	return err
}

// Require returns a fresh namespace on the cluster of Kubeconfig(),
// deleted when the test ends, or skips the test when no cluster answers.
func Require(t testing.TB) *Cluster {
	t.Helper()
	path := Kubeconfig()
	err := Answers()
	if err != nil {
		if os.Getenv("CURATE_REQUIRE_KUBE") == "1" {
			t.Fatalf("CURATE_REQUIRE_KUBE=1 but no Kubernetes cluster answers (%s): %v", path, err)
		}
		t.Skipf("no Kubernetes cluster (%s; start one with .ci/start-kube.sh): %v", path, err)
	}
	cs, err := client(path)
	if err != nil {
		t.Fatal(err)
	}
	var b [4]byte
	rand.Read(b[:])
	ns := "curate-test-" + hex.EncodeToString(b[:])
	ctx := context.Background()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", ns, err)
	}
	// Pods need the namespace's default service account to be admitted.
	for i := 0; ; i++ {
		if _, err := cs.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{}); err == nil {
			break
		} else if i > 150 {
			t.Fatalf("namespace %s has no default service account after 30s: %v", ns, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Cleanup(func() {
		fg := metav1.DeletePropagationForeground
		_ = cs.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{PropagationPolicy: &fg})
	})
	return &Cluster{Kubeconfig: path, Namespace: ns, Registry: Registry, CS: cs}
}

func client(path string) (kubernetes.Interface, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	rc, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, err
	}
	return kubernetes.NewForConfig(rc)
}

// Leftovers lists what curate left in the namespace: Jobs, pods,
// ConfigMaps and NetworkPolicies with its managed label.
func (c *Cluster) Leftovers(t testing.TB) []string {
	t.Helper()
	ctx := context.Background()
	sel := metav1.ListOptions{LabelSelector: "curate.managed=true"}
	var out []string
	jobs, err := c.CS.BatchV1().Jobs(c.Namespace).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range jobs.Items {
		out = append(out, "job/"+o.Name)
	}
	// Every pod but buildkitd's (`curate env buildkit install`), which is
	// the namespace's builder, not a run's.
	pods, err := c.CS.CoreV1().Pods(c.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name!=curate-buildkitd"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range pods.Items {
		out = append(out, "pod/"+o.Name)
	}
	cms, err := c.CS.CoreV1().ConfigMaps(c.Namespace).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range cms.Items {
		out = append(out, "configmap/"+o.Name)
	}
	nps, err := c.CS.NetworkingV1().NetworkPolicies(c.Namespace).List(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range nps.Items {
		out = append(out, "networkpolicy/"+o.Name)
	}
	return out
}
