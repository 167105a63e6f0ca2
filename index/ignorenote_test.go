package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingIndexedSaysWhichRule: a tree whose .gitignore ignores every
// top-level entry indexes nothing, and the sync says which line of which
// file did it.
func TestNothingIndexedSaysWhichRule(t *testing.T) {
	f := newFixture(t, "ignore_all.txtar")
	if f.stats.Files != 0 {
		t.Fatalf("indexed %d files, want 0 (every top-level entry is ignored)", f.stats.Files)
	}
	if len(f.stats.IgnoreNotes) == 0 {
		t.Fatalf("no ignore note for an empty walk; stats = %+v", f.stats)
	}
	note := f.stats.IgnoreNotes[0]
	for _, want := range []string{"nothing to index", ".gitignore line 9 `/*`", "every top-level entry (6)"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q does not say %q", note, want)
		}
	}
}

// TestFewIndexedSaysWhichRule: when one rule excludes nearly every
// top-level entry but a few files remain, the note still names it; an
// ordinary .gitignore (build output) gives no note.
func TestFewIndexedSaysWhichRule(t *testing.T) {
	root := writeTxtar(t, "ignore_all.txtar")
	gi := filepath.Join(root, ".gitignore")
	data, err := os.ReadFile(gi)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gi, append(data, "!/README\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	if f.stats.Files != 1 || len(f.stats.IgnoreNotes) != 1 {
		t.Fatalf("files = %d, notes = %q; want 1 file and one note", f.stats.Files, f.stats.IgnoreNotes)
	}
	if note := f.stats.IgnoreNotes[0]; !strings.Contains(note, ".gitignore line 9 `/*` excludes 5 of the 6 top-level entries") {
		t.Errorf("note = %q", note)
	}

	plain := newFixture(t, "workspace.txtar")
	if len(plain.stats.IgnoreNotes) != 0 {
		t.Errorf("workspace.txtar: notes = %q, want none", plain.stats.IgnoreNotes)
	}
}
