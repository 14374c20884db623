package python

import (
	"curate/pipeline/envgen"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Projects that turn warnings into errors (pytest's filterwarnings =
// error, -W error in addopts) fail on deprecations their code never saw:
// those an interpreter newer than any they declare adds (datetime.utcnow
// on 3.12, ast.Str on 3.12, the old collections aliases...). Both states
// of a task then fail, and the task is lost. The cap, like crater's
// --cap-lints warn: when the image's Python is newer than the newest the
// project declares (its classifiers, else, with none, newer than the
// revision), DeprecationWarning and PendingDeprecationWarning are shown,
// not raised (-W on pytest's command line outranks the ini's
// filterwarnings; marks on a test still outrank both). Every other
// warning the project makes an error stays one, and so do deprecations on
// an interpreter the project declares: those are the project's to fix.

// warningsAsErrorsRe finds "error" turning every warning into an error in
// pytest's configuration: filterwarnings = error (ini), a list item
// "error" (pyproject), -W error / -Werror in addopts.
var warningsAsErrorsRe = regexp.MustCompile(`(?m)(^\s*filterwarnings\s*=\s*\[?\s*["']?error["']?\s*(,|\]|$)|^\s*["']error["']\s*,?\s*$|^\s*error\s*$|(^|\s)-W\s*["']?error["']?(\s|$|["'\]]))`)

// pytestConfigs are where pytest reads its settings.
var pytestConfigs = []string{"pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"}

// releases of the interpreters the image may run.
var pyReleased = map[string]time.Time{
	DebianPython: debianPythonReleased,
	OlderPython:  time.Date(2020, 10, 5, 0, 0, 0, 0, time.UTC),
}

// warningsCap returns pytest options capping deprecations to warnings,
// and why, or "" when the project makes no warning an error or declares
// the interpreter.
func warningsCap(tree *envgen.Tree, version string) (opts, why string) {
	from := ""
	for _, f := range pytestConfigs {
		text := tree.Text(f)
		if f == "pyproject.toml" || f == "tox.ini" || f == "setup.cfg" {
			text = pytestSection(text)
		}
		if warningsAsErrorsRe.MatchString(text) {
			from = f
			break
		}
	}
	if from == "" {
		return "", ""
	}
	minor := 0
	if parts := pyVersionParts(version); len(parts) > 1 {
		minor = parts[1]
	}
	top := pyClassifiersMax(tree)
	switch {
	case top > 0 && top < minor:
		why = fmt.Sprintf("%s turns warnings into errors and the classifiers name Python 3.%d at newest; the image runs %s", from, top, version)
	case top == 0 && !tree.Date.IsZero() && tree.Date.Before(pyReleased[version]):
		why = fmt.Sprintf("%s turns warnings into errors and the revision (%s) is older than Python %s", from, tree.Date.Format("2006-01-02"), version)
	default:
		return "", ""
	}
	return "-W default::DeprecationWarning -W default::PendingDeprecationWarning ",
		why + ": the interpreter's deprecations are shown, not raised (-W default::DeprecationWarning -W default::PendingDeprecationWarning); other warnings stay errors"
}

// pytestSection is the part of a shared configuration file pytest reads:
// [pytest], [tool:pytest], [tool.pytest.ini_options] up to the next
// section.
func pytestSection(text string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "[[") && strings.HasSuffix(t, "]") && !strings.ContainsAny(t, "\"'") {
			in = t == "[pytest]" || t == "[tool:pytest]" || t == "[tool.pytest.ini_options]" || t == "[tool.pytest]"
			continue
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
