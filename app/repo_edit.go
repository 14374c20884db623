package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"curate/workspace"
)

// ProfileEdit is an edit of one repo's profile in $EDITOR: the section is
// written to a temp file (Path), the editor runs on it (Command), and
// Apply reads it back strictly and saves it into curate.toml, or leaves
// curate.toml untouched and says why (file:line:col of the temp file).
type ProfileEdit struct {
	Repo     string
	Path     string
	existing bool
	original string // what the temp file held before the editor
	ws       *workspace.Workspace
}

// StartProfileEdit writes repo's [repos."owner/name"] section (a new one,
// with what the builds detected as comments, when curate.toml has none) to
// a temp file.
func StartProfileEdit(ctx context.Context, ws *workspace.Workspace, repo string) (*ProfileEdit, error) {
	data, err := os.ReadFile(ws.ConfigPath())
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	sec, err := workspace.FindRepoSection(ws.ConfigPath(), data, repo)
	if err != nil {
		return nil, err
	}
	text := sec.Text
	if !sec.Found {
		text, err = newProfileText(ctx, ws, repo)
		if err != nil {
			return nil, err
		}
	}
	f, err := os.CreateTemp("", "curate-repo-"+strings.ReplaceAll(repo, "/", "__")+"-*.toml")
	if err != nil {
		return nil, fmt.Errorf("edit profile: %w", err)
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("edit profile: %w", err)
	}
	return &ProfileEdit{Repo: repo, Path: f.Name(), existing: sec.Found, original: text, ws: ws}, nil
}

// newProfileText is a new profile: the header and, commented out, the
// keys with what the builds detected.
func newProfileText(ctx context.Context, ws *workspace.Workspace, repo string) (string, error) {
	p := &RepoProfile{Language: "python"}
	ps, err := RepoProfiles(ctx, ws, RepoOptions{Repo: repo})
	switch {
	case errors.Is(err, ErrNoRepo): // a profile before the first mine
	case err != nil:
		return "", err
	default:
		p = ps[0]
	}
	var b strings.Builder
	b.WriteString(workspace.RepoHeader(repo) + "\n")
	fmt.Fprintf(&b, "# Overrides for every task of %s; uncomment what you change.\n", repo)
	if len(ps) == 0 {
		b.WriteString("# Nothing detected yet: no task of this repo is built.\n")
	} else {
		fmt.Fprintf(&b, "# Detected: %s", p.Language)
	}
	if len(p.Toolchain) > 0 {
		fmt.Fprintf(&b, ", %s", p.Toolchain[0])
	}
	if len(ps) > 0 {
		b.WriteString("\n")
	}
	for _, s := range p.Install {
		fmt.Fprintf(&b, "#   %s\n", oneLine(s))
	}
	if p.TestCommand != "" {
		fmt.Fprintf(&b, "#   tests: %s\n", oneLine(p.TestCommand))
	}
	b.WriteString("# language = \"" + p.Language + "\"\n")
	b.WriteString("# base_image = \"curate/base:bookworm\"\n")
	b.WriteString("# install = [\"pip install -e .\"]\n")
	b.WriteString("# test_command = \"python -m pytest -rA\"\n")
	b.WriteString("# dockerfile = [\"ENV CGO_ENABLED=0\"]\n")
	return b.String(), nil
}

func oneLine(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "\r", " ") }

// Editor is the command that edits path: $VISUAL, else $EDITOR, else vi
// (split into words, as shells do for simple values).
func Editor(path string) *exec.Cmd {
	ed := os.Getenv("VISUAL")
	if ed == "" {
		ed = os.Getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	words := strings.Fields(ed)
	return exec.Command(words[0], append(words[1:], path)...)
}

// Command is the editor on the temp file.
func (e *ProfileEdit) Command() *exec.Cmd { return Editor(e.Path) }

// Apply reads the edited section back and saves it into curate.toml;
// changed is false when nothing changed. On success the temp file is
// removed and the workspace's config reloaded; on error it is kept (the
// error names it) and curate.toml is untouched.
func (e *ProfileEdit) Apply() (changed bool, err error) {
	data, err := os.ReadFile(e.Path)
	if err != nil {
		return false, fmt.Errorf("read the edit: %w", err)
	}
	if string(data) == e.original { // closed without a change
		os.Remove(e.Path)
		return false, nil
	}
	changed, err = workspace.SaveRepoSection(e.ws.ConfigPath(), e.Path, data, e.Repo)
	if err != nil {
		return false, fmt.Errorf("%w\ncurate.toml is unchanged; the edit is kept in %s", err, e.Path)
	}
	os.Remove(e.Path)
	if changed {
		cfg, err := workspace.LoadConfig(e.ws.ConfigPath())
		if err != nil {
			return true, err
		}
		e.ws.Config = cfg
	}
	return changed, nil
}

// Discard removes the temp file.
func (e *ProfileEdit) Discard() { os.Remove(e.Path) }
