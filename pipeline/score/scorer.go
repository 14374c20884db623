package score

import (
	"fmt"
	"math"
	"strings"

	"curate/pipeline"
)

// Component keys, as ScoreBreakdown.Rules names them.
const (
	KeyContext  = "context_complexity"
	KeyCrossDep = "cross_file_deps"
	KeySemantic = "semantic_search_potential"
	KeyCategory = "task_category_weight"
)

// Scorer applies a compiled Config. It is safe for concurrent use.
type Scorer struct {
	cfg        Config
	prefixes   []string
	phases     []phaseRule
	cc, cfd, s []component
	difficulty []difficultyRule
	catWeights map[string]float64
	benchCat   map[string]float64
	langs      map[string]string
}

type phaseRule struct {
	matcher
	phase string
}

type difficultyRule struct {
	matcher
	label pipeline.Difficulty
}

// Compile checks a Config and prepares it. Errors name the rule
// ("score.difficulty[3] (pytorch-hard): ...").
func Compile(cfg Config) (*Scorer, error) {
	s := &Scorer{cfg: cfg, catWeights: lowerKeys(cfg.CategoryWeights), benchCat: lowerKeys(cfg.BenchmarkCategoryWeights),
		langs: map[string]string{}}
	for _, p := range cfg.BenchmarkPrefixes {
		s.prefixes = append(s.prefixes, strings.ToLower(p))
	}
	for k, v := range cfg.LanguageOverrides {
		s.langs[strings.ToLower(k)] = v
	}
	if cfg.DefaultPhase != "" {
		p, err := pipeline.ParsePhase(cfg.DefaultPhase)
		if err != nil {
			return nil, fmt.Errorf("score.default_phase: %w", err)
		}
		s.cfg.DefaultPhase = p
	}
	w := cfg.Weights
	if sum := w.ContextComplexity + w.CrossFileDeps + w.SemanticSearchPotential + w.TaskCategoryWeight; math.Abs(sum-1) > 1e-6 {
		return nil, fmt.Errorf("score.weights: the four weights sum to %g, want 1", sum)
	}
	for i, r := range cfg.Phase {
		m, err := compileMatch(r.Match, "")
		if err == nil && m.name == "" {
			err = fmt.Errorf("a phase rule needs a benchmark, category or condition")
		}
		if err != nil {
			return nil, fmt.Errorf("score.phase[%d]: %w", i+1, err)
		}
		p, err := pipeline.ParsePhase(r.Phase)
		if err != nil {
			return nil, fmt.Errorf("score.phase[%d] (%s): %w", i+1, m.name, err)
		}
		s.phases = append(s.phases, phaseRule{m, p})
	}
	for _, sec := range []struct {
		name  string
		rules []ComponentRule
		out   *[]component
	}{{KeyContext, cfg.ContextComplexity, &s.cc}, {KeyCrossDep, cfg.CrossFileDeps, &s.cfd}, {KeySemantic, cfg.SemanticSearchPotential, &s.s}} {
		for i, r := range sec.rules {
			c, err := compileComponent(sec.name, i, r)
			if err != nil {
				return nil, err
			}
			*sec.out = append(*sec.out, c)
		}
	}
	for i, r := range cfg.Difficulty {
		m, err := compileMatch(r.Match, "default")
		if err != nil {
			return nil, fmt.Errorf("score.difficulty[%d]: %w", i+1, err)
		}
		d, err := pipeline.ParseDifficulty(r.Label)
		if err == nil && d == "" {
			err = fmt.Errorf("label is empty")
		}
		if err != nil {
			return nil, fmt.Errorf("score.difficulty[%d] (%s): %w", i+1, m.name, err)
		}
		s.difficulty = append(s.difficulty, difficultyRule{m, d})
	}
	return s, nil
}

func lowerKeys(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[strings.ToLower(k)] = v
	}
	return out
}

// Benchmark is the name rules compare: lower case, profile prefixes removed.
func (s *Scorer) Benchmark(name string) string {
	b := strings.ToLower(name)
	for _, p := range s.prefixes {
		if strings.HasPrefix(b, p) {
			return b[len(p):]
		}
	}
	return b
}

// Apply sets the task's computed values: language override, SDLC phase,
// MCP benefit score with its breakdown, calibrated difficulty. It never
// touches the curator's labels.
func (s *Scorer) Apply(t *pipeline.Task) {
	s.overrideLanguage(t)
	x := &in{benchmark: s.Benchmark(t.Benchmark), category: strings.ToLower(t.Category), features: t.Features}

	t.SDLCPhase, t.PhaseRule = s.cfg.DefaultPhase, "default"
	for i := range s.phases {
		if s.phases[i].matches(x) {
			t.SDLCPhase, t.PhaseRule = s.phases[i].phase, s.phases[i].name
			break
		}
	}

	rules := make(map[string]string, 4)
	cc := s.component(s.cc, x, KeyContext, rules)
	cfd := s.component(s.cfd, x, KeyCrossDep, rules)
	ssp := s.component(s.s, x, KeySemantic, rules)
	tcw := s.categoryWeight(x, rules)
	w := s.cfg.Weights
	t.Breakdown = pipeline.ScoreBreakdown{ContextComplexity: cc, CrossFileDeps: cfd, SemanticSearchPotential: ssp,
		TaskCategoryWeight: tcw, Rules: rules}
	t.Score = round(w.ContextComplexity*cc+w.CrossFileDeps*cfd+w.SemanticSearchPotential*ssp+w.TaskCategoryWeight*tcw, 4)

	t.DifficultyCalibrated, t.DifficultyRule = "", "manual"
	for i := range s.difficulty {
		if s.difficulty[i].matches(x) {
			t.DifficultyCalibrated, t.DifficultyRule = s.difficulty[i].label, s.difficulty[i].name
			break
		}
	}
}

// component is the first matching rule's value, clamped to [0,1] and
// rounded to 3 places; 0 with rule "none" when nothing matches.
func (s *Scorer) component(rules []component, x *in, key string, names map[string]string) float64 {
	for i := range rules {
		if v, ok := rules[i].eval(x); ok {
			names[key] = rules[i].name
			return round(math.Min(math.Max(v, 0), 1), 3)
		}
	}
	names[key] = "none"
	return 0
}

func (s *Scorer) categoryWeight(x *in, names map[string]string) float64 {
	if v, ok := s.catWeights[x.category]; ok && x.category != "" {
		names[KeyCategory] = "category " + x.category
		return round(v, 3)
	}
	if v, ok := s.benchCat[x.benchmark]; ok {
		names[KeyCategory] = "benchmark " + x.benchmark
		return round(v, 3)
	}
	names[KeyCategory] = "default"
	return round(s.cfg.DefaultCategoryWeight, 3)
}

// overrideLanguage applies the profile's per-repo language, matched on the
// full "owner/name" or the name alone. The source's language is kept in
// Extra["language_original"] (and the rule in Extra["language_override"])
// so a later profile without the override restores it.
func (s *Scorer) overrideLanguage(t *pipeline.Task) {
	orig, overridden := t.Extra["language_original"].(string)
	if !overridden {
		orig = t.Language
	}
	lang, key := s.languageFor(t.Repo)
	if lang == "" || lang == orig {
		if overridden {
			t.Language = orig
			delete(t.Extra, "language_original")
			delete(t.Extra, "language_override")
		}
		return
	}
	if t.Extra == nil {
		t.Extra = map[string]any{}
	}
	t.Language = lang
	t.Extra["language_original"] = orig
	t.Extra["language_override"] = "profile language_overrides." + key
}

func (s *Scorer) languageFor(repo string) (lang, key string) {
	if len(s.langs) == 0 || repo == "" {
		return "", ""
	}
	key = strings.ToLower(repo)
	if l, ok := s.langs[key]; ok {
		return l, key
	}
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		key = key[i+1:]
		return s.langs[key], key
	}
	return "", ""
}

func round(x float64, places int) float64 {
	p := math.Pow10(places)
	return math.Round(x*p) / p
}
