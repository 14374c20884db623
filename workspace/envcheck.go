package workspace

import (
	"fmt"
	"time"
)

// EnvCheckConfig bounds `curate env check` ([env_check]): which tests it
// runs and for how long.
type EnvCheckConfig struct {
	// Scope: "touched" (the default) runs the test files the repository's
	// mined PRs change, as they are at the snapshot; "all" runs every test
	// file, as SWE-smith's check does.
	Scope string `toml:"scope"`
	// Budget is the longest the suite may run ("20m" when unset); Budgets
	// overrides it per language ("java" = "40m"). A check that runs out
	// keeps the results it has and names the test files it did not reach.
	Budget  string            `toml:"budget"`
	Budgets map[string]string `toml:"budgets"`
}

// DefaultEnvCheckBudget is a check's time budget when curate.toml sets none.
const DefaultEnvCheckBudget = 20 * time.Minute

// EnvCheckBudget is the check's time budget for a repository of lang.
func (c *Config) EnvCheckBudget(lang string) time.Duration {
	for _, s := range []string{c.EnvCheck.Budgets[lang], c.EnvCheck.Budget} {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			return d
		}
	}
	return DefaultEnvCheckBudget
}

func (c *Config) validateEnvCheck() error {
	switch c.EnvCheck.Scope {
	case "", "touched", "all":
	default:
		return c.Errorf("env_check.scope", "%q: want touched or all", c.EnvCheck.Scope)
	}
	check := func(key, v string) error {
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			return c.Errorf(key, "%q: want a positive duration such as \"20m\" or \"1h\"", v)
		}
		return nil
	}
	if c.EnvCheck.Budget != "" {
		if err := check("env_check.budget", c.EnvCheck.Budget); err != nil {
			return err
		}
	}
	for lang, v := range c.EnvCheck.Budgets {
		if err := check(fmt.Sprintf("env_check.budgets.%s", lang), v); err != nil {
			return err
		}
	}
	return nil
}
