package testenv

import (
	"context"
	"strings"
	"testing"
)

// PackagesImage returns the test base image with Debian packages added
// (a compiler and build tools for the C and C++ runner's tests), built
// once per machine and tagged by the package list.
func PackagesImage(t testing.TB, packages ...string) string {
	t.Helper()
	base := BaseImage(t)
	cli := RequireDocker(t)
	dockerfile := "FROM " + base + "\nRUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends " +
		strings.Join(packages, " ") + " >/dev/null && rm -rf /var/lib/apt/lists/*\n"
	tag := "curate-test/packages:" + hash(dockerfile)
	return cached(t, tag, func(ctx context.Context) error {
		return buildImage(ctx, cli, tag, []contextFile{{"Dockerfile", 0o644, []byte(dockerfile)}})
	})
}
