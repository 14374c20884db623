package cli

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/query"
)

// Shell completion: `curate completion bash|zsh|fish|powershell` prints
// the script (cobra's); the candidates come from here. Task ids, run ids,
// repos and selections are read from the workspace; enum flags list their
// values.

type completer = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective)

// argCompletion names what each command's arguments are.
var argCompletion = map[string]string{
	"curate show": "task", "curate label": "task", "curate score": "task", "curate build": "task",
	"curate validate": "task", "curate history": "task",
	"curate runs show": "run", "curate runs cancel": "run",
	"curate repo show": "repo", "curate repo edit": "repo", "curate env check": "repo",
	"curate select diff": "selection", "curate select rm": "selection", "curate select rename": "selection",
}

// flagValues are the fixed values of enum flags, by flag name and, where
// one name means different things, by command.
func flagValues(cmd *cobra.Command, flag string) []string {
	switch flag {
	case "format":
		if cmd.CommandPath() == "curate export" {
			return export.Formats
		}
	case "mode":
		return []string{pipeline.ModeNop, pipeline.ModeOracle, pipeline.ModeGold}
	case "difficulty":
		out := []string{}
		for _, d := range pipeline.Difficulties {
			out = append(out, string(d))
		}
		return append(out, "none")
	case "sort":
		out := append([]string{}, app.SortKeys...)
		for _, k := range app.SortKeys {
			out = append(out, "-"+k)
		}
		return out
	case "at":
		if cmd.CommandPath() == "curate build" {
			return []string{"merge", "snapshot", "snapshot:", "auto"}
		}
		return []string{"snapshot:"}
	}
	return nil
}

// registerCompletions walks the command tree once it is built and attaches
// the completions above, so each command file stays about its command.
func registerCompletions(root *cobra.Command, env *Env) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if kind, ok := argCompletion[c.CommandPath()]; ok && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = dynamic(env, kind)
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			var fn completer
			switch {
			case f.Name == "selection":
				fn = dynamic(env, "selection")
			case f.Name == "repo" && c.CommandPath() != "curate mine git":
				fn = dynamic(env, "repo")
			case f.Name == "filter":
				fn = filterCompletion
			default:
				if vals := flagValues(c, f.Name); vals != nil {
					fn = fixed(vals, f.Name == "mode")
				}
			}
			if fn != nil {
				_ = c.RegisterFlagCompletionFunc(f.Name, fn)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// fixed completes from a list; a comma list (--mode nop,gold) completes
// its last item.
func fixed(vals []string, commaList bool) completer {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		head, last := "", toComplete
		if i := strings.LastIndex(toComplete, ","); commaList && i >= 0 {
			head, last = toComplete[:i+1], toComplete[i+1:]
		}
		out := []string{}
		for _, v := range vals {
			if strings.HasPrefix(v, last) {
				out = append(out, head+v)
			}
		}
		if commaList {
			return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// filterCompletion offers the filter fields as FIELD=.
func filterCompletion(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	out := []string{}
	for _, f := range query.Fields {
		if strings.HasPrefix(f+"=", toComplete) {
			out = append(out, f+"=")
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// dynamic completes names read from the workspace: tasks (by id prefix),
// runs, repos or selections. Outside a workspace it offers nothing.
func dynamic(env *Env, kind string) completer {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		none := cobra.ShellCompDirectiveNoFileComp
		if kind == "task" && cmd.CommandPath() == "curate validate" {
			none = cobra.ShellCompDirectiveDefault // a task folder is an argument too
		}
		ws, err := env.Workspace(cmd.Context())
		if err != nil {
			return nil, none
		}
		seen := map[string]bool{}
		var names []string
		add := func(s string) {
			if s != "" && !seen[s] && strings.HasPrefix(s, toComplete) {
				seen[s] = true
				names = append(names, s)
			}
		}
		switch kind {
		case "task", "repo":
			tasks, err := ws.Store.Tasks(cmd.Context())
			if err != nil {
				return nil, none
			}
			for _, t := range tasks {
				if kind == "task" {
					add(t.ID)
				} else {
					add(t.Repo)
				}
			}
		case "run":
			runs, err := ws.Store.Runs(cmd.Context(), "")
			if err != nil {
				return nil, none
			}
			for _, r := range runs {
				add(r.ID)
			}
		case "selection":
			sels, err := ws.Store.Selections(cmd.Context())
			if err != nil {
				return nil, none
			}
			for _, s := range sels {
				add(s)
			}
		}
		if kind != "selection" {
			sort.Strings(names) // selections stay newest first
		}
		return names, none
	}
}

// completeSelections is for commands that set their own ValidArgsFunction.
func completeSelections(env *Env) completer { return dynamic(env, "selection") }
