package patch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"curate/internal/fixtures"
)

// A project checks its Visual Studio files out with CRLF
// (.gitattributes: *.vcxproj text eol=crlf). git archive writes them so,
// while the PR's diff has LF: bug.patch must still apply to the head
// tree, and leave the file as the base's checkout has it (a compression
// library's PRs that added a source file to its .vcxproj were refused:
// "patch does not apply").
func TestCheckAppliesToFilesCheckedOutWithCRLF(t *testing.T) {
	dir := t.TempDir()
	g, _ := fixtures.NewGit(dir, "acme/lib")
	g.Write(map[string]string{".gitattributes": "* text eol=lf\n*.vcxproj text eol=crlf\n",
		"build/lib.vcxproj": "<Project>\n  <ClCompile Include=\"a.c\" />\n  <ClCompile Include=\"b.c\" />\n</Project>\n",
		"a.c":               "int a(void) { return 1; }\n", "tests/test_a.c": "int main(void) { return 0; }\n"})
	g.Commit("init")
	g.Write(map[string]string{
		"build/lib.vcxproj": "<Project>\n  <ClCompile Include=\"a.c\" />\n  <ClCompile Include=\"split.c\" />\n  <ClCompile Include=\"b.c\" />\n</Project>\n",
		"a.c":               "int a(void) { return 2; }\n", "split.c": "int s;\n", "tests/test_a.c": "int main(void) { return 1; }\n"})
	g.Commit("Split blocks (#2)")
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	ctx := context.Background()
	s, err := Make(ctx, dir, revParse(t, dir, "HEAD~1"), revParse(t, dir, "HEAD"), isTest, 0)
	if err != nil {
		t.Fatal(err)
	}
	tar := filepath.Join(t.TempDir(), "repo.tar")
	if err := Archive(ctx, dir, "HEAD", tar); err != nil {
		t.Fatal(err)
	}
	head := extract(t, dir, "HEAD")
	if data, _ := os.ReadFile(filepath.Join(head, "build/lib.vcxproj")); !bytes.Contains(data, []byte("\r\n")) {
		t.Fatalf("the archive's .vcxproj has no CRLF; the test needs it:\n%q", data)
	}
	if err := s.Check(ctx, tar); err != nil {
		t.Fatalf("Check refused a PR git applies: %v", err)
	}
	applyFile(t, head, s.Bug)
	got, _ := os.ReadFile(filepath.Join(head, "build/lib.vcxproj"))
	want, _ := os.ReadFile(filepath.Join(extract(t, dir, "HEAD~1"), "build/lib.vcxproj"))
	if !bytes.Equal(got, want) {
		t.Errorf("after bug.patch the .vcxproj is\n%q\nwant the base's checkout\n%q", got, want)
	}
}
