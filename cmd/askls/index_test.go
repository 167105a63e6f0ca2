package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/askls/askls/internal/fixture"
)

// TestIndexSaysWhyNothingWasIndexed: `askls index` on a tree whose
// .gitignore ignores every top-level entry names the rule.
func TestIndexSaysWhyNothingWasIndexed(t *testing.T) {
	root := fixture.Tree(t, map[string]string{
		".gitignore":     "*.o\n/*\n!/debian/\n",
		"kernel/sched.c": "void schedule(void) {}\n",
		"Makefile":       "all:\n",
	})
	out, err := captureStdout(t, func() error {
		return run(context.Background(), []string{"index", "--root", root, "--cache", t.TempDir()}, io.Discard)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"indexed 0 files", "note: nothing to index in " + root, ".gitignore line 2 `/*` excludes every top-level entry (3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not say %q:\n%s", want, out)
		}
	}
}
