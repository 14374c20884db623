package javascript

import (
	"curate/pipeline/envgen"
	"reflect"
	"strings"
	"testing"
)

// The shapes of fb55/htmlparser2 at 80788f47 (PR 2358), trimmed to the
// lines that matter: a helper module under src/__fixtures__ that three
// specs import as "./__fixtures__/testHelper.js" (a .ts file), documents
// one spec reads through new URL("__fixtures__/Documents/", ...) and one
// through a template string, and __snapshots__ beside the specs. Before,
// a PR changing only testHelper.ts or a document was refused ("none of
// the PR's test files is a script a runner can load"), and a changed
// *.spec.ts that declares no tests ran alone and failed with vitest's
// "No test suite found in file", classed unclassified.
var htmlparser2Tree = map[string]string{
	"package.json":                               `{"type":"module","scripts":{"test":"npm run test:vi && npm run lint","test:vi":"vitest run"},"devDependencies":{"vitest":"^4"}}`,
	"package-lock.json":                          "{}",
	"src/__fixtures__/testHelper.ts":             "import type { Handler, Parser } from \"../Parser.js\";\nexport function getEventCollector(callback) {}\n",
	"src/__fixtures__/Documents/Basic.html":      "<html></html>\n",
	"src/__fixtures__/Documents/RSS_Example.xml": "<rss/>\n",
	"src/FeedHandler.spec.ts": "import fs from \"node:fs/promises\";\nimport { describe, expect, it } from \"vitest\";\nimport { parseFeed } from \"./index.js\";\n\n" +
		"const documents = new URL(\"__fixtures__/Documents/\", import.meta.url);\n\ndescribe(\"parseFeed\", () => {\n    it(\"(rssFeed)\", async () => {});\n});\n",
	"src/Parser.events.spec.ts": "import { describe, expect, it } from \"vitest\";\nimport * as helper from \"./__fixtures__/testHelper.js\";\n\ndescribe(\"Events\", () => {\n    it(\"simple\", () => {});\n});\n",
	"src/WritableStream.spec.ts": "import { describe, expect, it, vi } from \"vitest\";\nimport * as helper from \"./__fixtures__/testHelper.js\";\n\ndescribe(\"WritableStream\", () => {\n" +
		"    it(\"Basic html\", () => testStream(\"Basic.html\"));\n});\nasync function testStream(file) {\n    const filePath = new URL(`__fixtures__/Documents/${file}`, import.meta.url);\n}\n",
	"src/Tokenizer.spec.ts": "import { describe, expect, it } from \"vitest\";\nimport { Tokenizer } from \"./index.js\";\n\ndescribe(\"Tokenizer\", () => {\n    it(\"works\", () => {});\n});\n",
	// A *.spec.ts module of shared cases: it exports data and declares no test.
	"src/cases.spec.ts":                             "export const cases = [{ input: \"<a>\", output: [] }];\n",
	"src/Parser.spec.ts":                            "import { describe, it } from \"vitest\";\nimport { cases } from \"./cases.spec.js\";\n\ndescribe(\"Parser\", () => { for (const c of cases) it(c.input, () => {}); });\n",
	"src/__snapshots__/WritableStream.spec.ts.snap": "// Vitest Snapshot\n",
	"src/Parser.ts":                                 "export class Parser {}\n",
}

func TestSplitSuites(t *testing.T) {
	tree := envgen.MapTree("fb55/htmlparser2", htmlparser2Tree)
	for _, c := range []struct {
		name  string
		files []string
		want  []string
	}{
		{"suite only", []string{"src/Tokenizer.spec.ts"}, []string{"src/Tokenizer.spec.ts"}},
		{"helper module", []string{"src/__fixtures__/testHelper.ts"}, []string{"src/Parser.events.spec.ts", "src/WritableStream.spec.ts"}},
		{"document read by folder", []string{"src/__fixtures__/Documents/RSS_Example.xml"}, []string{"src/FeedHandler.spec.ts", "src/WritableStream.spec.ts"}},
		{"spec of shared cases", []string{"src/cases.spec.ts"}, []string{"src/Parser.spec.ts"}},
		{"snapshot with its suite", []string{"src/Tokenizer.spec.ts", "src/__snapshots__/WritableStream.spec.ts.snap"}, []string{"src/Tokenizer.spec.ts", "src/WritableStream.spec.ts"}},
		{"suite and helper", []string{"src/Tokenizer.spec.ts", "src/__fixtures__/testHelper.ts"}, []string{"src/Tokenizer.spec.ts", "src/Parser.events.spec.ts", "src/WritableStream.spec.ts"}},
	} {
		got, _ := splitSuites(tree, c.files)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: suites %q, want %q", c.name, got, c.want)
		}
	}
	// The plan runs them, not the helper, and says why.
	p, err := envgen.LanguageFor("typescript").Plan(tree, envgen.Tests{Files: []string{"src/cases.spec.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "vitest.json 'src/Parser.spec.ts'"; !strings.Contains(p.Test.Command, want) || strings.Contains(p.Test.Command, "cases.spec") {
		t.Errorf("test command %q, want it to run %s", p.Test.Command, want)
	}
}

func TestIsSuite(t *testing.T) {
	for text, want := range map[string]bool{
		"test('a', t => {});":                                 true,
		"tap.test('a', t => {});":                             true,
		"describe.each(cases)('x', () => {});":                true,
		"export const cases = [1, 2];":                        false,
		"export const ok = (s) => re.test(s) && /x/.test(s);": false,
	} {
		if isSuite(text) != want {
			t.Errorf("isSuite(%q) = %v, want %v", text, !want, want)
		}
	}
}
