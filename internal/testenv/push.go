package testenv

import (
	"context"
	"encoding/base64"
	"io"
	"testing"

	"github.com/docker/docker/api/types/image"

	"curate/pipeline/validate"
)

// PushImage pushes the local image to remote (a registry reference)
// through the test's own Docker client, for tests that put an image where
// a cluster's builder or nodes read it; the remote tag is removed after.
func PushImage(t testing.TB, local, remote string) {
	t.Helper()
	cli := RequireDocker(t)
	ctx := context.Background()
	if err := cli.ImageTag(ctx, local, remote); err != nil {
		t.Fatal(err)
	}
	defer cli.ImageRemove(ctx, remote, image.RemoveOptions{})
	rc, err := cli.ImagePush(ctx, remote, image.PushOptions{RegistryAuth: base64.URLEncoding.EncodeToString([]byte("{}"))})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if err := validate.ReadBuildOutput(rc, io.Discard); err != nil {
		t.Fatalf("push %s: %v", remote, err)
	}
}
