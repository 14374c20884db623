package kube

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/pkg/jsonmessage"

	"curate/pipeline/validate"
)

// PushResult is one image pushed to the registry.
type PushResult struct {
	Ref   string // registry/repo@sha256:...
	Bytes int64  // layer bytes sent (0 when the registry had every layer)
}

// Push tags a local image into the registry and pushes it. The registry
// keeps layers by digest, so an unchanged layer is not sent twice; an
// image pushed once in this process is not pushed again.
func (r *Runner) Push(ctx context.Context, local string, out io.Writer) (string, int64, error) {
	r.mu.Lock()
	l := r.locks[local]
	if l == nil {
		l = &sync.Mutex{}
		r.locks[local] = l
	}
	r.mu.Unlock()
	l.Lock()
	defer l.Unlock()
	r.mu.Lock()
	ref, ok := r.pushed[local]
	r.mu.Unlock()
	if ok {
		return ref, 0, nil
	}
	res, err := r.push(ctx, local)
	if err != nil {
		return "", 0, err
	}
	if out != nil {
		fmt.Fprintf(out, "curate: pushed %s as %s (%d bytes sent)\n", local, res.Ref, res.Bytes)
	}
	if r.PushOut != nil {
		fmt.Fprintf(r.PushOut, "pushed %s: %d bytes sent\n", res.Ref, res.Bytes)
	}
	r.mu.Lock()
	r.pushed[local] = res.Ref
	r.mu.Unlock()
	return res.Ref, res.Bytes, nil
}

// remoteName is the registry name of a local image: same repository and
// tag, under the registry.
func (r *Runner) remoteName(local string) string {
	name := local
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if !strings.Contains(name, ":") {
		name += ":latest"
	}
	return strings.TrimSuffix(r.cfg.Registry, "/") + "/" + name
}

func (r *Runner) push(ctx context.Context, local string) (*PushResult, error) {
	cli := r.docker.Client()
	remote := r.remoteName(local)
	if err := cli.ImageTag(ctx, local, remote); err != nil {
		return nil, validate.Infra(fmt.Errorf("tag %s as %s: %w", local, remote, err))
	}
	// An empty JSON object: no credentials (a registry that needs them
	// takes them from the engine's own login).
	auth := base64.URLEncoding.EncodeToString([]byte("{}"))
	rc, err := cli.ImagePush(ctx, remote, image.PushOptions{RegistryAuth: auth})
	if err != nil {
		return nil, validate.Infra(fmt.Errorf("push %s: %w", remote, err))
	}
	defer rc.Close()
	dec := json.NewDecoder(rc)
	sent := map[string]int64{}
	var digest string
	for {
		var m jsonmessage.JSONMessage
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return nil, validate.Infra(fmt.Errorf("push %s: read progress: %w", remote, err))
		}
		if m.Error != nil {
			return nil, validate.Infra(fmt.Errorf("push %s: %s", remote, m.Error.Message))
		}
		if m.Status == "Pushing" && m.Progress != nil && m.Progress.Current > sent[m.ID] {
			sent[m.ID] = m.Progress.Current
		}
		if m.Aux != nil {
			var aux struct{ Digest string }
			if json.Unmarshal(*m.Aux, &aux) == nil && aux.Digest != "" {
				digest = aux.Digest
			}
		}
	}
	if digest == "" {
		return nil, validate.Infra(fmt.Errorf("push %s: the engine reported no digest", remote))
	}
	var total int64
	for _, n := range sent {
		total += n
	}
	repo := remote[:strings.LastIndex(remote, ":")]
	return &PushResult{Ref: repo + "@" + digest, Bytes: total}, nil
}
