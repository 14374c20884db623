package git

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// curate runs git on repositories it did not make (tarballs, shared
// folders), whose config, hooks and attributes may name commands. Every
// call therefore carries settings in git's command scope, which wins
// over every config file, so that nothing a repository configures runs:
// the fixed ones below, and for keys that name a driver or a remote
// (filter.NAME.smudge, remote.NAME.uploadpack) an override per name the
// repository's own config uses. The settings travel as
// GIT_CONFIG_COUNT/KEY/VALUE, which git hands on to the git processes it
// starts (a lazy fetch, upload-pack) and which take any name, even one
// with "=" in it.

// Protocols are the transports curate uses: local paths and bundles
// (file), and clones from a forge (https, http, ssh). Everything else -
// ext:: (runs a command), git:// (runs core.gitProxy), remote helpers -
// is refused, whatever the repository's protocol.*.allow says.
var Protocols = []string{"file", "https", "http", "ssh"}

// remoteProtocols are Protocols without file.
var remoteProtocols = []string{"https", "http", "ssh"}

// fixedConfig holds whatever the repository says.
var fixedConfig = []setting{
	{"core.fsmonitor", "false"},     // a hook command run on every index read
	{"core.hooksPath", "/dev/null"}, // no hook runs (post-checkout, reference-transaction, ...)
	{"log.showSignature", "false"},  // else log runs gpg.program on signed commits
	{"protocol.allow", "never"},     // then the allowed transports one by one
}

// guardEnv is added to every call: no system config (a machine's
// /etc/gitconfig is not the user's either), no editor, and the transport
// list (protocolEnv) overrides protocol.*.allow from any config file.
var guardEnv = []string{
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_EDITOR=:",
	"GIT_SEQUENCE_EDITOR=:",
}

// diffCommands show diffs, where a repository's diff.NAME.textconv and
// diff.NAME.command (or diff.external) would run.
var diffCommands = map[string]bool{"diff": true, "log": true, "show": true, "format-patch": true, "whatchanged": true}

type setting struct{ key, value string }

func init() {
	for _, p := range Protocols {
		fixedConfig = append(fixedConfig, setting{"protocol." + p + ".allow", "always"})
	}
}

// guarded is args with --no-textconv --no-ext-diff after a diff-showing
// subcommand.
func guarded(args []string) []string {
	i := subcommandIndex(args)
	if i < 0 || !diffCommands[args[i]] {
		return args
	}
	out := append([]string{}, args[:i+1]...)
	out = append(out, "--no-textconv", "--no-ext-diff")
	return append(out, args[i+1:]...)
}

// protocolEnv allows exactly protocols, whatever any config says.
func protocolEnv(protocols []string) []string {
	return []string{"GIT_ALLOW_PROTOCOL=" + strings.Join(protocols, ":")}
}

// configEnv is settings as GIT_CONFIG_COUNT/KEY_n/VALUE_n.
func configEnv(settings []setting) []string {
	env := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(settings))}
	for i, s := range settings {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+s.key, "GIT_CONFIG_VALUE_"+n+"="+s.value)
	}
	return env
}

// repositoryOverrides reads the config git would read for a call (the
// repository's files and what they include, the user's ~/.gitconfig)
// and returns the settings that neutralise what the repository set.
// globalOpts are the call's options before the subcommand (-C DIR,
// --git-dir=DIR), so the same repository is read. The answer is kept
// while none of the config files it came from changes (guardcache.go):
// a build reads thousands of blobs from one repository.
func repositoryOverrides(ctx context.Context, dir string, env, globalOpts []string) ([]setting, []string, error) {
	key := cacheKey(dir, env, globalOpts)
	if g, ok := cached(key); ok {
		return g.settings, g.protocols, nil
	}
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, globalOpts...), "config", "--list", "--show-scope", "--show-origin", "--null")...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, Error([]string{"config"}, err, stderr.String())
	}
	entries := parseListing(out)
	settings, protocols := neutralise(entries)
	remember(key, entries, settings, protocols, workDir(dir, globalOpts), env)
	return settings, protocols, nil
}

// entry is one line of `git config --list --show-scope --show-origin`.
type entry struct{ scope, origin, name, value string }

// parseListing reads `git config --list --show-scope --show-origin
// --null`: scope, origin, then "name\nvalue" (or a bare name), each
// ended by NUL.
func parseListing(out []byte) []entry {
	var entries []entry
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+2 < len(fields); i += 3 {
		name, value, _ := strings.Cut(string(fields[i+2]), "\n")
		entries = append(entries, entry{string(fields[i]), string(fields[i+1]), name, value})
	}
	return entries
}

// neutralise turns `git config --list --show-scope --null` output into
// overrides for every filter driver and for the command keys set in the
// repository's scopes (local, worktree), and the transports the call may
// use. The user's other entries stay, except that clearing the repository's credential helpers clears
// the list, so the user's helpers are added back after the clearing. A
// remote's uploadpack or receivepack command runs on this machine when
// the remote is a local path, and git keeps the first value it reads (the
// repository's), so a repository that sets one gets no file transport.
func neutralise(entries []entry) ([]setting, []string) {
	var out, userHelpers []setting
	seen := map[string]bool{}
	repoHelpers, localPack := false, false
	add := func(s ...setting) {
		for _, x := range s {
			if !seen[x.key] {
				seen[x.key] = true
				out = append(out, x)
			}
		}
	}
	for _, e := range entries {
		scope, name, value := e.scope, e.name, e.value
		section, sub, key := splitKey(name)
		if section == "credential" && key == "helper" {
			if scope == "global" {
				userHelpers = append(userHelpers, setting{name, value})
			}
			repoHelpers = repoHelpers || scope == "local" || scope == "worktree"
			continue
		}
		// Every filter, the user's too: the repository's attributes pick
		// which one runs on its files (git-lfs would fetch from a server
		// the repository names); curate reads blobs as stored.
		if section == "filter" && sub != "" && scope != "command" {
			p := "filter." + sub + "."
			add(setting{p + "smudge", ""}, setting{p + "clean", ""}, setting{p + "process", ""}, setting{p + "required", "false"})
		}
		if scope != "local" && scope != "worktree" {
			continue
		}
		switch {
		case section == "core" && key == "alternaterefscommand": // a fetch runs it
			add(setting{"core.alternateRefsCommand", "true"})
		case section == "remote" && sub != "" && (key == "uploadpack" || key == "receivepack"):
			localPack = true
		}
	}
	if repoHelpers {
		out = append(out, setting{"credential.helper", ""})
		out = append(out, userHelpers...)
	}
	protocols := Protocols
	if localPack {
		protocols = remoteProtocols
	}
	return out, protocols
}

// splitKey splits section.subsection.key; the subsection may hold dots.
func splitKey(name string) (section, sub, key string) {
	first, last := strings.IndexByte(name, '.'), strings.LastIndexByte(name, '.')
	if first < 0 {
		return name, "", ""
	}
	section, key = strings.ToLower(name[:first]), strings.ToLower(name[last+1:])
	if last > first {
		sub = name[first+1 : last]
	}
	return section, sub, key
}

// subcommandIndex is the index of the git command in args, after global
// options such as -C DIR and -c KEY=VALUE; -1 when there is none.
func subcommandIndex(args []string) int {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-c":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}

// globalOptions are args before the subcommand.
func globalOptions(args []string) []string {
	if i := subcommandIndex(args); i >= 0 {
		return args[:i]
	}
	return args
}

// guardError is the error a call returns when its repository's config
// cannot be read first.
func guardError(args []string, err error) error {
	return fmt.Errorf("reading the repository's config before git %s: %w", Subcommand(args), err)
}
