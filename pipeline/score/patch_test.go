package score

import "testing"

const twoFiles = `diff --git a/src/a.go b/src/a.go
index 111..222 100644
--- a/src/a.go
+++ b/src/a.go
@@ -1,4 +1,5 @@
 package a
--- a decrement that looks like a header
+++ an increment that looks like a header
+added
 keep
diff --git a/src/b.go b/src/b.go
new file mode 100644
--- /dev/null
+++ b/src/b.go
@@ -0,0 +1,2 @@
+package b
+
\ No newline at end of file
`

func TestCountPatch(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want PatchStats
	}{
		{"empty", "", PatchStats{}},
		{"not a diff", "hello\nworld\n", PatchStats{}},
		{"two files, tricky lines", twoFiles, PatchStats{Files: 2, Added: 4, Removed: 1}},
		{"crlf", "diff --git a/x b/x\r\n--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n", PatchStats{Files: 1, Added: 1, Removed: 1}},
		{"plain unified diff", "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n--- a/y\n+++ b/y\n@@ -1 +0,0 @@\n-z\n", PatchStats{Files: 2, Added: 1, Removed: 2}},
		{"short hunk then header", "diff --git a/x b/x\n@@ -1,9 +1,9 @@\n-a\n+b\ndiff --git a/y b/y\n@@ -1 +1 @@\n-c\n+d\n", PatchStats{Files: 2, Added: 2, Removed: 2}},
		{"binary", "diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n", PatchStats{Files: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CountPatch(c.in); got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestEmbeddedDiff(t *testing.T) {
	script := "#!/bin/bash\nset -e\ncd /app\ngit apply <<'PATCH'\n" + twoFiles + "PATCH\necho done\n"
	got := EmbeddedDiff(script)
	if got != twoFiles {
		t.Fatalf("got %q", got)
	}
	if st := CountPatch(EmbeddedDiff(script)); st.Files != 2 || st.LOC() != 5 {
		t.Fatalf("stats %+v", st)
	}
	if EmbeddedDiff("#!/bin/sh\necho 'no diff --git here'\n") != "" {
		t.Fatal("found a diff in a script without one")
	}
	noDelim := "patch -p1 < fix.patch\n" + twoFiles
	if EmbeddedDiff(noDelim) != twoFiles {
		t.Fatal("diff to end of script")
	}
}

func TestInstructionStats(t *testing.T) {
	cases := []struct {
		in               string
		files, add, del  int
		filesOK, linesOK bool
	}{
		{"## Ground truth\n- 12 files modified\n- 340 additions, 25 deletions\n", 12, 340, 25, true, true},
		{"The PR has 1 file changed with 3 additions and 1 deletion.", 1, 3, 1, true, true},
		{"Stats: 1,204 files modified; 3,100 additions, 426 deletions", 1204, 3100, 426, true, true},
		{"No statistics here.", 0, 0, 0, false, false},
	}
	for _, c := range cases {
		f, fok, a, d, lok := InstructionStats(c.in)
		if f != c.files || fok != c.filesOK || a != c.add || d != c.del || lok != c.linesOK {
			t.Errorf("%q: got %d %v %d %d %v", c.in, f, fok, a, d, lok)
		}
	}
}

func FuzzCountPatch(f *testing.F) {
	f.Add(twoFiles)
	f.Add("@@ -99999999999999999999,1 +1,-5 @@\n-x\n")
	f.Add("diff --git a b\n@@ -1,2 +1,2 @@\n\\\n \n")
	f.Fuzz(func(t *testing.T, s string) {
		st := CountPatch(s)
		if st.Files < 0 || st.Added < 0 || st.Removed < 0 {
			t.Fatalf("negative counts %+v", st)
		}
		lines := 1
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' {
				lines++
			}
		}
		if st.Files+st.Added+st.Removed > lines {
			t.Fatalf("more counts than lines: %+v for %d lines", st, lines)
		}
		_ = EmbeddedDiff(s)
		InstructionStats(s)
	})
}

func TestLanguageFromPatch(t *testing.T) {
	cases := map[string]string{
		twoFiles: "go",
		"diff --git a/x.py b/x.py\ndiff --git a/y.TS b/y.TS\ndiff --git a/z.ts b/z.ts\n": "typescript",
		"diff --git a/README b/README\n":                                                 "",
		"diff --git\n":                                                                   "",
		"":                                                                               "",
	}
	for in, want := range cases {
		if got := LanguageFromPatch(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func TestLanguageFromQuotedName(t *testing.T) {
	diff := "diff --git \"a/caf\\303\\251.py\" \"b/caf\\303\\251.py\"\n--- \"a/caf\\303\\251.py\"\n+++ \"b/caf\\303\\251.py\"\n@@ -1 +1 @@\n-a\n+b\n"
	if got := LanguageFromPatch(diff); got != "python" {
		t.Fatalf("language %q, want python", got)
	}
}
