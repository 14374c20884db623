package rust

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
	"fmt"
	"regexp"
	"strings"
)

// debianRust is Debian 12's rustc-web and cargo-web in bookworm-security
// (bookworm itself has 1.85): which one an image gets depends on its apt
// sources, so a build step checks the rustc it really has.
var debianRust = envgen.SemVer{1, 96, 0}

var (
	rustVersionRe = regexp.MustCompile(`(?m)^\s*rust-version\s*=\s*"([^"]+)"`)
	toolchainRe   = regexp.MustCompile(`(?m)^\s*channel\s*=\s*"([^"]+)"`)
	// rustflagsRe reads a .cargo/config rustflags list; RUSTFLAGS would
	// replace it, so its flags are carried into RUSTFLAGS.
	rustflagsRe = regexp.MustCompile(`(?m)^\s*rustflags\s*=\s*\[([^\]]*)\]`)
)

// planToolchain records the rustc the crate asks for (Cargo.toml
// rust-version, rust-toolchain(.toml)) against Debian's, adds a build
// step that compares the image's real rustc with the wanted one, and
// sets how cargo resolves and lints for that rustc.
func planToolchain(tree *envgen.Tree, p *envgen.Plan) {
	debian := fmt.Sprintf("%d.%d", debianRust[0], debianRust[1])
	want, wantFrom := "", ""
	if m := rustVersionRe.FindStringSubmatch(packageSection(tree.Text("Cargo.toml")) + "\n" + workspaceSection(tree.Text("Cargo.toml"))); m != nil {
		if _, n := envgen.ParseVersion(m[1]); n > 0 {
			want, wantFrom = m[1], "Cargo.toml rust-version "+m[1]
		}
	}
	source := "Debian 12 rustc-web/cargo-web (bookworm-security; the crate names no rust-version)"
	if want != "" {
		source = "Debian 12 rustc-web/cargo-web (bookworm-security), at least " + wantFrom
	}
	for _, f := range []string{"rust-toolchain.toml", "rust-toolchain"} {
		s := strings.TrimSpace(tree.Text(f))
		if s == "" {
			continue
		}
		channel := s
		if m := toolchainRe.FindStringSubmatch(s); m != nil {
			channel = m[1]
		}
		v, n := envgen.ParseVersion(channel)
		switch {
		case strings.HasPrefix(channel, "nightly"):
			p.Note("%s asks for %s: tests that need nightly features will not build on stable %s", f, channel, debian)
			source += "; " + f + " asks for " + channel + " (not served by Debian)"
		case n > 0 && debianRust.Less(v):
			want, wantFrom = channel, f+" channel "+channel
			source += "; " + f + " pins " + channel
		case n > 0:
			source += "; " + f + " pins " + channel + " (older: Debian's newer rustc builds it)"
		default:
			source += "; " + f + " channel " + channel
		}
		break
	}
	if want == "" && !tree.Has("rust-toolchain.toml") && !tree.Has("rust-toolchain") {
		if v, src, ok := ciconfig.Read(tree).Version(ciconfig.Rust); ok {
			source += "; " + src + " " + v + " (CI's toolchain; Debian's is the only rustc)"
		}
	}
	p.Decide("rust", debian, source)
	// The image's rustc is whatever its apt sources serve (1.85 from a
	// base image that reads only bookworm main): the step names it.
	check := `have=$(rustc --version | cut -d' ' -f2) && echo "rustc $have, $(cargo --version)"`
	if want != "" {
		check += ` && if [ "$(printf '%s\n%s\n' ` + envgen.ShellQuote(want) + ` "$have" | sort -V | head -n 1)" != ` + envgen.ShellQuote(want) + ` ]; then ` +
			`echo "curate: toolchain_mismatch: ` + dq(wantFrom) + ` needs rustc ` + dq(want) + ` or newer; the image has rustc $have (Debian's rustc-web is ` + debian + ` in bookworm-security, 1.85 in bookworm: a base image reading only bookworm is remade with curate env bootstrap --force)" >&2; exit 1; fi`
	}
	p.ToolchainSteps = append(p.ToolchainSteps, check)

	// Without Cargo.lock cargo resolves today's crates, whose newest
	// versions may need a newer rustc: the MSRV-aware fallback (cargo
	// 1.84+) takes the newest that fits rust-version, else the rustc.
	p.Env = append(p.Env, "CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback")
	if !tree.Has("Cargo.lock") {
		p.Note("no Cargo.lock: crates resolved with cargo's MSRV-aware fallback (CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback) for the image's rustc (curate-cargo-lock sets rust-version to it while the lock is written, so an old rust-version does not leave the newest crates)")
	} else {
		p.Note("Cargo.lock pins the crates; a crate the lock lacks resolves with cargo's MSRV-aware fallback")
	}
	// Lints a newer rustc adds, turned into errors by #![deny(warnings)],
	// would fail both states alike: capped at warn, as crater does.
	flags := []string{"--cap-lints", "warn"}
	for _, f := range []string{".cargo/config.toml", ".cargo/config"} {
		if m := rustflagsRe.FindStringSubmatch(tree.Text(f)); m != nil {
			for _, q := range quotedRe.FindAllStringSubmatch(m[1], -1) {
				if !strings.ContainsAny(q[1], " \t'\"\\$") {
					flags = append(flags, q[1])
				}
			}
			p.Note("%s rustflags carried into RUSTFLAGS (which would replace them)", f)
			break
		}
	}
	p.Env = append(p.Env, "RUSTFLAGS="+strings.Join(flags, " "), "RUSTDOCFLAGS=--cap-lints warn")
	p.Note("lints capped at warn (RUSTFLAGS/RUSTDOCFLAGS --cap-lints warn, as crater does): a lint the project denies (#![deny(warnings)]) that a newer rustc adds never fails both states")
}

// dq escapes s for a double-quoted shell string.
func dq(s string) string {
	return strings.NewReplacer(`"`, `\"`, "`", "\\`", `\`, `\\`, "$", `\$`).Replace(s)
}

// workspaceSection is the [workspace.package] table (rust-version
// inherited by members).
func workspaceSection(toml string) string {
	i := strings.Index(toml, "[workspace.package]")
	if i < 0 {
		return ""
	}
	rest := toml[i+len("[workspace.package]"):]
	if j := strings.Index(rest, "\n["); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
