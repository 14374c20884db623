package validate

import (
	"archive/tar"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"curate/pipeline/envgen"
)

// The build contexts of a task's images, shared by the local engine's
// builds (layered.go) and those of an engine that builds elsewhere
// (pipeline/validate/kube with BuildKit), so both build the same images.

// RepoContext is the context of a layered task's repository environment
// image: its Dockerfile (the part above the marker, then labels) and
// every file but the task layer's.
func RepoContext(envDir string, l *Layers, labels map[string]string) (dockerfile string, files func(*tar.Writer) error) {
	df := l.Env + LabelLine(labels)
	return envDockerfile, func(tw *tar.Writer) error {
		if err := addFile(tw, envDockerfile, []byte(df)); err != nil {
			return err
		}
		return writeTreeFunc(tw, envDir, "", func(rel string) bool { return rel != "Dockerfile" && !l.TaskFiles[rel] })
	}
}

// TaskContext is the context of a layered task's own layer, FROM the
// repository image from: the part below the marker, then labels, and
// the files it copies.
func TaskContext(envDir string, l *Layers, from string, labels map[string]string) (dockerfile string, files func(*tar.Writer) error) {
	// The labels go in as one LABEL line: the builder's Labels option
	// makes a container per label, seconds of a task layer's build.
	pre := ""
	if l.Network {
		pre = "ARG " + envgen.PackageCacheArg + "\n" // an ARG ends at FROM: the layer's own steps install through the cache too
	}
	df := "FROM " + from + "\n" + pre + l.Task + LabelLine(labels)
	return taskDockerfile, func(tw *tar.Writer) error {
		if err := addFile(tw, taskDockerfile, []byte(df)); err != nil {
			return err
		}
		return writeTreeFunc(tw, envDir, "", func(rel string) bool { return l.TaskFiles[rel] || isParent(rel, l.TaskFiles) })
	}
}

// WholeContext is the context of a task image built as a whole: the
// folder as it is.
func WholeContext(envDir string) func(*tar.Writer) error {
	return func(tw *tar.Writer) error { return writeTree(tw, envDir, "") }
}

// EnvLabels are the labels of a workspace's images of kind, with extra.
func EnvLabels(workspace, kind string, extra map[string]string) map[string]string {
	l := map[string]string{LabelManaged: "true", LabelWorkspace: workspace, LabelKind: kind}
	for k, v := range extra {
		l[k] = v
	}
	return l
}

// LabelLine is one Dockerfile LABEL instruction setting labels, in key
// order.
func LabelLine(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("\nLABEL")
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, strconv.Quote(labels[k]))
	}
	return b.String() + "\n"
}

// BaseImageOf is the image a Dockerfile's first FROM names ("" if none).
func BaseImageOf(dockerfile string) string { return baseImageOf(dockerfile) }

// TarStream is the tar archive files writes, as a stream (the writer's
// error ends it).
func TarStream(files func(*tar.Writer) error) *io.PipeReader {
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := files(tw)
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	return pr
}

// AddFile adds a regular file of data to tw.
func AddFile(tw *tar.Writer, name string, data []byte) error { return addFile(tw, name, data) }
