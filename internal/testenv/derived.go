package testenv

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/build"

	"curate/pipeline/validate"
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
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(dockerfile)), Typeflag: tar.TypeReg})
		tw.Write([]byte(dockerfile))
		tw.Close()
		resp, err := cli.ImageBuild(ctx, &buf, build.ImageBuildOptions{
			Tags: []string{tag}, Remove: true, ForceRemove: true, Version: build.BuilderV1,
			Labels: map[string]string{validate.LabelManaged: "true", validate.LabelKind: "test"},
		})
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var out bytes.Buffer
		if err := validate.ReadBuildOutput(resp.Body, &out); err != nil {
			return fmt.Errorf("%w\n%s", err, tail(out.String(), 2000))
		}
		return nil
	})
}
