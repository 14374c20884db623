package statement

import (
	"strings"
	"testing"

	"curate/pipeline/unidiff"
)

func mustParse(t testing.TB, diff string) []unidiff.File {
	t.Helper()
	fs, err := unidiff.Parse("test.patch", diff)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// fuzzScanner checks a scanner never panics, reports lines inside the
// file, and names its errors' file and line.
func fuzzScanner(f *testing.F, lang string, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	scan := scannerFor(lang)
	f.Fuzz(func(t *testing.T, src string) {
		ds, err := scan("in.x", []byte(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.x:") {
				t.Fatalf("error does not name the file and line: %v", err)
			}
			return
		}
		lines := strings.Count(src, "\n") + 1
		for _, d := range ds {
			if d.Line < 1 || d.Line > lines || d.Name == "" {
				t.Fatalf("decl %+v outside the file's %d lines", d, lines)
			}
		}
	})
}

func FuzzScanGo(f *testing.F) {
	fuzzScanner(f, "go", "package p\nfunc F(a int) error { return nil }\ntype T struct{ X int }\nfunc (t *T) M() {}\n", "package p\nconst (A = iota; B)\n")
}

func FuzzScanPython(f *testing.F) {
	fuzzScanner(f, "python", "class C(B):\n    def m(self, x: int) -> str:\n        def inner(): pass\n\nasync def f(*a, **k):\n    '''doc: def g(): pass'''\n", "x = f'''{a}'''\ndef _p(): pass\n")
}

func FuzzScanJS(f *testing.F) {
	fuzzScanner(f, "javascript", "export default function pMap(it, fn, {concurrency = 1} = {}) {\n const r = /[{]/g; return `${a}`\n}\nexports.parse = function (s, o) {}\nclass A { static m(a) { } #p() {} }\n")
}

func FuzzScanTS(f *testing.F) {
	fuzzScanner(f, "typescript", "export type Options = {a?: number};\nexport interface I { m(x: string): void }\nexport const f = <T,>(x: T): T => x;\nexport declare namespace N { function g(): void }\n")
}

func FuzzScanRust(f *testing.F) {
	fuzzScanner(f, "rust", "/* a /* nested */ comment */\npub struct B<'a> { x: &'a [u8] }\nimpl<'a> B<'a> {\n    pub fn new(x: &'a [u8]) -> Self { let c = 'x'; let s = r#\"{\"#; B { x } }\n}\npub trait T { fn m(&self) -> u8; }\n")
}

func FuzzScanJava(f *testing.F) {
	fuzzScanner(f, "java", "package p;\n@Deprecated\npublic final class C<T> extends B implements I {\n  public static final int N = 3;\n  public C(int x) { char c = '{'; }\n  protected <U> U m(String s) throws E { return null; }\n}\npublic interface I { void f(); }\n")
}

func FuzzScanC(f *testing.F) {
	fuzzScanner(f, "c", "#define X(a) \\\n  (a)\nextern \"C\" {\nCJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value);\nstatic int helper(void) { return '}'; }\ntypedef struct cJSON { int x; } cJSON;\n}\n")
}

func FuzzScanCpp(f *testing.F) {
	fuzzScanner(f, "cpp", "namespace YAML {\nclass YAML_CPP_API Emitter {\n public:\n  bool SetShowTrailingZero(bool value);\n private:\n  void hidden();\n};\ntemplate <typename T> inline T as(const Node& n) { return n.as<T>(); }\n}\n")
}

type unidiffFile = unidiff.File
