package validate

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// debootstrap writes only "<suite> main" into the tree's sources.list, while
// the host usually also reads <suite>-updates and <suite>-security: that is
// where Debian's point fixes and newer toolchains (rustc-web) live. A base
// image that apt-installs from fewer sources than its host gets older
// packages and no security fixes, so the host's Debian sources go in.

// AptSource is one apt source file carried from the host, with the keyrings
// its Signed-By lines name.
type AptSource struct {
	Path     string   // the host file (/etc/apt/sources.list.d/debian.sources)
	Body     string   // its text, only the Debian stanzas of the suite
	Keyrings []string // host keyring files it needs
}

// HostAptSources reads the host's apt source files (deb822 .sources and
// one-line .list files in dir, then listFile) and keeps the entries that
// serve Debian's archive for suite (the suite itself, -updates,
// -security, -backports); other vendors' sources stay on the host.
func HostAptSources(dir, listFile, suite string) []AptSource {
	var files []string
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".sources") || strings.HasSuffix(e.Name(), ".list") {
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	sort.Strings(files)
	files = append(files, listFile)
	var out []AptSource
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || len(data) > 1<<20 {
			continue
		}
		var src AptSource
		if strings.HasSuffix(f, ".sources") {
			src = debianStanzas(string(data), suite)
		} else {
			src = debianListLines(string(data), suite)
		}
		if src.Body == "" {
			continue
		}
		src.Path = f
		out = append(out, src)
	}
	return out
}

// debianStanzas keeps the deb822 stanzas whose URIs are Debian's and whose
// suites belong to suite.
func debianStanzas(text, suite string) AptSource {
	var src AptSource
	var keep []string
	for _, stanza := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		fields := map[string]string{}
		sc := bufio.NewScanner(strings.NewReader(stanza))
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") {
				fields[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
			}
		}
		if strings.EqualFold(fields["enabled"], "no") || !strings.Contains(fields["types"], "deb") {
			continue
		}
		if !debianURIs(strings.Fields(fields["uris"])) || !suitesOf(strings.Fields(fields["suites"]), suite) {
			continue
		}
		keep = append(keep, strings.TrimSpace(stanza))
		if k := fields["signed-by"]; strings.HasPrefix(k, "/") && !strings.Contains(k, "\n") {
			src.Keyrings = append(src.Keyrings, k)
		}
	}
	if len(keep) > 0 {
		src.Body = strings.Join(keep, "\n\n") + "\n"
	}
	return src
}

// debianListLines keeps the one-line "deb URI SUITE COMPONENTS" entries for
// Debian's archive and suite.
func debianListLines(text, suite string) AptSource {
	var src AptSource
	var keep []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "deb" {
			continue
		}
		i := 1
		if strings.HasPrefix(f[1], "[") { // options: [arch=amd64 signed-by=/x]
			for ; i < len(f) && !strings.HasSuffix(f[i], "]"); i++ {
				if k, ok := strings.CutPrefix(f[i], "signed-by="); ok {
					src.Keyrings = append(src.Keyrings, k)
				}
			}
			if i < len(f) {
				if k, ok := strings.CutPrefix(strings.TrimSuffix(f[i], "]"), "signed-by="); ok {
					src.Keyrings = append(src.Keyrings, k)
				}
			}
			i++
		}
		if i+1 >= len(f) || !debianURIs(f[i:i+1]) || !suitesOf(f[i+1:i+2], suite) {
			continue
		}
		keep = append(keep, strings.TrimSpace(line))
	}
	if len(keep) > 0 {
		src.Body = strings.Join(keep, "\n") + "\n"
	}
	return src
}

func debianURIs(uris []string) bool {
	for _, u := range uris {
		if strings.Contains(u, "://") && strings.Contains(u, "debian") {
			return true
		}
	}
	return false
}

func suitesOf(suites []string, suite string) bool {
	for _, s := range suites {
		if s == suite || strings.HasPrefix(s, suite+"-") || strings.HasPrefix(s, suite+"/") {
			return true
		}
	}
	return false
}

// writeAptSources puts the host's Debian sources into the root file system
// in place of debootstrap's sources.list, with the keyrings they name, and
// says what it carried. With no host source found, debootstrap's file stays.
func writeAptSources(root string, srcs []AptSource, log func(string)) error {
	if len(srcs) == 0 {
		log("apt sources: none found on the host; the image keeps debootstrap's (main only)")
		return nil
	}
	dir := filepath.Join(root, "etc", "apt", "sources.list.d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range srcs {
		name := filepath.Base(s.Path)
		if !strings.HasSuffix(name, ".sources") && !strings.HasSuffix(name, ".list") {
			name += ".list" // the classic /etc/apt/sources.list
		}
		if err := os.WriteFile(filepath.Join(dir, "host-"+name), []byte(s.Body), 0o644); err != nil {
			return err
		}
		for _, k := range s.Keyrings {
			data, err := os.ReadFile(k)
			if err != nil || len(data) > 4<<20 {
				continue // the image's own keyring package may hold it
			}
			dst := filepath.Join(root, filepath.Clean("/"+k))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				return err
			}
		}
		log(fmt.Sprintf("apt sources: %s from the host (%d keyrings)", s.Path, len(s.Keyrings)))
	}
	// debootstrap's one line would repeat the main suite.
	if err := os.Remove(filepath.Join(root, "etc", "apt", "sources.list")); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
