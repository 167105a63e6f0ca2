package thread

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/citations"
)

func testStore(t testing.TB, opts Options) *Store {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	if opts.Workspace == nil {
		opts.Workspace = []string{"/ws/a"}
	}
	s, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// bigThread is a thread of n turns, each citing two spans of ~40 lines.
func bigThread(s *Store, n int) *Thread {
	th := s.New()
	code := strings.Repeat("\tx := compute(a, b) // a line of code of ordinary length\n", 40)
	for i := 0; i < n; i++ {
		var ev []int
		var cits []citations.Citation
		for k := 0; k < 2; k++ {
			e := Evidence{N: len(th.Evidence) + 1, Path: fmt.Sprintf("pkg/f%d.go", i), Start: 10 + 50*k, End: 49 + 50*k, Symbol: "F", Text: code, Hash: "00"}
			th.Evidence = append(th.Evidence, e)
			ev = append(ev, e.N)
			cits = append(cits, citations.Citation{N: k + 1, Path: e.Path, Start: e.Start, End: e.End, Symbol: "F", Excerpt: citations.Excerpt(code)})
		}
		th.Turns = append(th.Turns, Turn{
			Question: fmt.Sprintf("question %d?", i), Answer: strings.Repeat("An answer sentence citing code [1] and more [2]. ", 20),
			Mode: "model", Citations: cits, Evidence: ev, At: time.Now().UTC(),
		})
	}
	return th
}

func TestSaveLoadListDelete(t *testing.T) {
	s := testStore(t, Options{})
	a := bigThread(s, 2)
	b := bigThread(s, 1)
	if err := s.Save(a); err != nil {
		t.Fatal(err)
	}
	b.Updated = a.Updated.Add(time.Second)
	if err := s.Save(b); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Turns) != 2 || got.Turns[1].Question != "question 1?" || len(got.Evidence) != 4 || got.Turns[0].Citations[1].Start != 60 {
		t.Fatalf("loaded %+v", got)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != b.ID || list[1].Turns != 2 || list[1].Title != "question 0?" {
		t.Fatalf("list %+v", list)
	}
	last, err := s.Last()
	if err != nil || last.ID != b.ID {
		t.Fatalf("last %v %v", last, err)
	}
	if err := s.Delete(b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(b.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load of a deleted thread: %v", err)
	}
	if err := s.Delete(b.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
	for _, bad := range []string{"", "../../etc/passwd", "ABCDEF0123456789", "0123"} {
		if _, err := s.Load(bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("load %q: %v", bad, err)
		}
	}
}

// Two workspaces do not see each other's threads; the same roots in
// another order are the same workspace.
func TestWorkspacesApart(t *testing.T) {
	dir := t.TempDir()
	a := testStore(t, Options{CacheDir: dir, Workspace: []string{"/ws/a", "/ws/b"}})
	b := testStore(t, Options{CacheDir: dir, Workspace: []string{"/ws/c"}})
	a2 := testStore(t, Options{CacheDir: dir, Workspace: []string{"/ws/b", "/ws/a"}})
	th := bigThread(a, 1)
	if err := a.Save(th); err != nil {
		t.Fatal(err)
	}
	if l, _ := b.List(); len(l) != 0 {
		t.Errorf("another workspace lists %v", l)
	}
	if l, _ := a2.List(); len(l) != 1 {
		t.Errorf("the same workspace lists %v", l)
	}
}

// The store keeps at most MaxThreads threads and none idle past MaxAge.
func TestBounds(t *testing.T) {
	s := testStore(t, Options{MaxThreads: 3, MaxAge: time.Hour})
	var ids []string
	for i := 0; i < 5; i++ {
		th := bigThread(s, 1)
		if err := s.Save(th); err != nil {
			t.Fatal(err)
		}
		// Distinct modification times, oldest first.
		when := time.Now().Add(time.Duration(i-10) * time.Second)
		os.Chtimes(filepath.Join(s.Dir(), th.ID+".json"), when, when)
		ids = append(ids, th.ID)
	}
	list, _ := s.List()
	if len(list) != 3 {
		t.Fatalf("%d threads kept, want 3", len(list))
	}
	for _, gone := range ids[:2] {
		if _, err := s.Load(gone); !errors.Is(err, ErrNotFound) {
			t.Errorf("oldest thread %s kept", gone)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(s.Dir(), ids[2]+".json"), old, old)
	if err := s.Save(bigThread(s, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ids[2]); !errors.Is(err, ErrNotFound) {
		t.Errorf("a thread idle past MaxAge was kept")
	}
}

// A crash while writing leaves a temporary file and the previous version:
// the thread loads as it was before the turn in flight. A damaged file is
// a clear error and is left out of the list.
func TestCrashLosesOnlyTheTurnInFlight(t *testing.T) {
	s := testStore(t, Options{})
	th := bigThread(s, 3)
	if err := s.Save(th); err != nil {
		t.Fatal(err)
	}
	// The write of turn 4 died before its rename.
	if err := os.WriteFile(filepath.Join(s.Dir(), ".tmp-123"), []byte(`{"id":"`+th.ID+`","turns":[{"quest`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(th.ID)
	if err != nil || len(got.Turns) != 3 {
		t.Fatalf("after a crash: %v, %v", got, err)
	}
	bad := "0123456789abcdef"
	os.WriteFile(filepath.Join(s.Dir(), bad+".json"), []byte("{not json"), 0o600)
	if _, err := s.Load(bad); err == nil || !strings.Contains(err.Error(), "is not a thread") {
		t.Errorf("damaged file: %v", err)
	}
	if l, err := s.List(); err != nil || len(l) != 1 {
		t.Errorf("list with a damaged file: %v %v", l, err)
	}
}

// BenchmarkLoad50 loads a thread of 50 turns (100 cited spans of 40
// lines).
func BenchmarkLoad50(b *testing.B) {
	s := testStore(b, Options{})
	th := bigThread(s, 50)
	if err := s.Save(th); err != nil {
		b.Fatal(err)
	}
	info, _ := os.Stat(filepath.Join(s.Dir(), th.ID+".json"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Load(th.ID); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(info.Size()), "bytes/file")
}
