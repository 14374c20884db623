package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The host shape this machine kind has (/etc/apt/sources.list.d/debian.sources):
// debootstrap wrote only "bookworm main" into images, so apt in a task image
// saw rustc-web 1.85 where the host's bookworm-security has 1.96.
const hostDebianSources = `Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /KEYRING

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /KEYRING

Types: deb
URIs: https://deb.nodesource.com/node_20.x
Suites: nodistro
Components: main
`

func TestHostAptSourcesCarriesUpdatesAndSecurity(t *testing.T) {
	host := t.TempDir()
	keyring := filepath.Join(host, "keyring.gpg")
	writeFile(t, keyring, "KEY")
	dir := filepath.Join(host, "sources.list.d")
	writeFile(t, filepath.Join(dir, "debian.sources"), strings.ReplaceAll(hostDebianSources, "/KEYRING", keyring))
	writeFile(t, filepath.Join(dir, "other.list"), "deb https://packages.example.com/apt cloud-sdk main\n")
	writeFile(t, filepath.Join(dir, "old.list.disabled"), "deb http://deb.debian.org/debian bookworm main\n")
	list := filepath.Join(host, "sources.list")
	writeFile(t, list, "# comment\ndeb [arch=amd64 signed-by="+keyring+"] http://deb.debian.org/debian bookworm-backports main\ndeb http://deb.debian.org/debian bullseye main\n")

	srcs := HostAptSources(dir, list, "bookworm")
	if len(srcs) != 2 {
		t.Fatalf("want debian.sources and sources.list, got %+v", srcs)
	}
	if b := srcs[0].Body; !strings.Contains(b, "bookworm-updates") || !strings.Contains(b, "bookworm-security") || strings.Contains(b, "nodesource") {
		t.Fatalf("deb822 stanzas: %q", b)
	}
	if b := srcs[1].Body; !strings.Contains(b, "bookworm-backports") || strings.Contains(b, "bullseye") {
		t.Fatalf("list lines: %q", b)
	}
	if len(srcs[1].Keyrings) != 1 || srcs[1].Keyrings[0] != keyring {
		t.Fatalf("signed-by option: %v", srcs[1].Keyrings)
	}

	root := t.TempDir()
	writeFile(t, filepath.Join(root, "etc", "apt", "sources.list"), "deb http://deb.debian.org/debian bookworm main\n")
	var said []string
	if err := writeAptSources(root, srcs, func(s string) { said = append(said, s) }); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "etc", "apt", "sources.list.d", "host-debian.sources"))
	if err != nil || !strings.Contains(string(got), "bookworm-security") {
		t.Fatalf("image sources: %q %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(root, keyring)); err != nil {
		t.Fatalf("keyring not carried: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "etc", "apt", "sources.list")); !os.IsNotExist(err) {
		t.Fatalf("debootstrap's sources.list should go: %v", err)
	}
	if len(said) != 2 || !strings.Contains(said[0], "debian.sources") {
		t.Fatalf("notes: %v", said)
	}
}

func TestHostAptSourcesNoneKeepsDebootstrap(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "etc", "apt", "sources.list"), "deb http://deb.debian.org/debian bookworm main\n")
	if srcs := HostAptSources(filepath.Join(root, "none"), filepath.Join(root, "none.list"), "bookworm"); len(srcs) != 0 {
		t.Fatalf("got %v", srcs)
	}
	var said string
	if err := writeAptSources(root, nil, func(s string) { said = s }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "etc", "apt", "sources.list")); err != nil || !strings.Contains(said, "main only") {
		t.Fatalf("kept: %v, said %q", err, said)
	}
}

func FuzzHostAptSources(f *testing.F) {
	f.Add(hostDebianSources, "deb [signed-by=/k] http://deb.debian.org/debian bookworm main\n")
	f.Add("Types: deb\nURIs:\n", "deb [ http://x\n")
	f.Fuzz(func(t *testing.T, sources, list string) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.sources"), []byte(sources), 0o644)
		os.WriteFile(filepath.Join(dir, "b.list"), []byte(list), 0o644)
		for _, s := range HostAptSources(dir, filepath.Join(dir, "none"), "bookworm") {
			if s.Body == "" {
				t.Fatal("empty body kept")
			}
		}
	})
}
