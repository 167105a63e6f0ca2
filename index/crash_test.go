package index

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/index/store"
)

// TestMain lets the test binary act as an indexing process that the crash
// test kills.
func TestMain(m *testing.M) {
	if dir := os.Getenv("ASKLS_CRASH_CHILD_ROOT"); dir != "" {
		ix, err := Open(context.Background(), Options{Roots: []string{dir}, CacheDir: os.Getenv("ASKLS_CRASH_CHILD_CACHE"),
			Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if _, err := ix.Sync(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		ix.Close()
		os.Exit(0)
	}
	if dir := os.Getenv("ASKLS_TEMP_CHILD_ROOT"); dir != "" {
		tempIndexChild(dir)
	}
	os.Exit(m.Run())
}

func writeGenerated(t *testing.T, root string, n int, version string, every int) {
	t.Helper()
	for i := 0; i < n; i += every {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%40))
		os.MkdirAll(dir, 0o755)
		body := fmt.Sprintf("package p\n\n// F%d carries marker %s.\nfunc F%d() int {\n\treturn %d\n}\n", i, marker(version, i), i, i)
		for k := 0; k < 3; k++ {
			body += fmt.Sprintf("\n// G%d_%d is padding.\nfunc G%d_%d() {}\n", i, k, i, k)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.go", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// marker is a word unique to file i in version v, letters only (digits
// would split it into parts shared by every file).
func marker(v string, i int) string {
	m := "zq" + v
	for k := 0; k < 3; k++ {
		m += string(rune('a' + i%26))
		i /= 26
	}
	return m
}

// runChild runs one indexing process; with kill set it is killed as soon
// as its journal shows a batch in flight. It reports whether it was killed
// before finishing.
func runChild(t *testing.T, root, cache string, kill bool) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ASKLS_CRASH_CHILD_ROOT="+root, "ASKLS_CRASH_CHILD_CACHE="+cache)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if !kill {
		if err := <-done; err != nil {
			t.Fatalf("indexing process: %v\n%s", err, stderr.String())
		}
		return false
	}
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("indexing process: %v\n%s", err, stderr.String())
			}
			return false // finished before we could kill it
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("indexing process never wrote its journal")
		case <-time.After(time.Millisecond):
		}
		matches, _ := filepath.Glob(filepath.Join(cache, "*", store.JournalFile))
		// A cold build writes segments offline instead of journaling.
		segs, _ := filepath.Glob(filepath.Join(cache, "*", store.BleveDir, "scorch-offline-build*", "*"))
		if len(segs) > 0 {
			cmd.Process.Kill()
			<-done
			return true
		}
		for _, j := range matches {
			if info, err := os.Stat(j); err == nil && info.Size() > 0 {
				cmd.Process.Kill()
				<-done
				return true
			}
		}
	}
}

func TestKillMidBatchLeavesAUsableIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns indexing processes")
	}
	root, cache := t.TempDir(), t.TempDir()
	const n = 1500
	writeGenerated(t, root, n, "a", 1)
	// Killed in the middle of the first (cold) indexing.
	killedCold := runChild(t, root, cache, true)
	// A complete run, then half the files change and that run is killed.
	runChild(t, root, cache, false)
	writeGenerated(t, root, n, "b", 2)
	killedWarm := runChild(t, root, cache, true)
	t.Logf("killed during the cold run: %v, during the update: %v", killedCold, killedWarm)

	f := openFixture(t, root, cache)
	defer f.ix.Close()
	if killedWarm && !strings.Contains(f.log.String(), "re-indexing them") && !strings.Contains(f.log.String(), "rebuilding") {
		t.Errorf("no log line about the interrupted run:\n%s", f.log)
	}
	snap := f.ix.Snapshot()
	for i := 0; i < n; i += 7 {
		want := fmt.Sprintf("pkg%02d/f%04d.go", i%40, i)
		version := "a"
		if i%2 == 0 {
			version = "b"
		}
		hits, err := snap.Search(context.Background(), marker(version, i), 5, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].Path != want {
			t.Fatalf("marker of %s (version %s): hits %+v", want, version, hits)
		}
		if version == "b" {
			if old, _ := snap.Search(context.Background(), marker("a", i), 5, Filter{}); len(old) != 0 {
				t.Fatalf("stale content of %s still indexed: %+v", want, old)
			}
		}
	}
	if st := f.ix.Stats(); st.Files != n {
		t.Errorf("files = %d, want %d", st.Files, n)
	}
}

// TestSearchDuringColdBuild searches while a first large index is built
// (run with -race): searches answer from what is written so far and
// never fail.
func TestSearchDuringColdBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes 1,100 files")
	}
	root := t.TempDir()
	writeGenerated(t, root, 1100, "a", 1)
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: t.TempDir(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	done := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		defer close(done)
		for {
			select {
			case <-errs:
				return
			default:
			}
			if _, err := ix.Snapshot().Search(context.Background(), marker("a", 7), 5, Filter{}); err != nil {
				errs <- err
				return
			}
			if ix.Stats().Ready {
				return
			}
		}
	}()
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-done
	select {
	case err := <-errs:
		t.Fatalf("search during the build: %v", err)
	default:
	}
	hits, err := ix.Snapshot().Search(context.Background(), marker("a", 7), 5, Filter{})
	if err != nil || len(hits) != 1 {
		t.Fatalf("after the build: %+v, %v", hits, err)
	}
}
