package index

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// unwritableCacheDir is a cache folder that cannot be made (under a file):
// Open then works in a temporary index.
func unwritableCacheDir(t testing.TB, parent string) string {
	f := filepath.Join(parent, "a-file")
	os.WriteFile(f, nil, 0o644)
	return filepath.Join(f, "cache")
}

// tempIndexChild opens a temporary index of root, prints its folder and
// waits to be killed.
func tempIndexChild(root string) {
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: os.Getenv("ASKLS_TEMP_CHILD_CACHE"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ix.roots[0].cache)
	time.Sleep(time.Hour)
	os.Exit(0)
}

// backdate makes a temporary index's lock file look older than staleAfter.
func backdate(t *testing.T, dir string) {
	old := time.Now().Add(-2 * time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "lock"), old, old); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// TestKilledRunsTemporaryIndexIsRemoved: a process killed (kill -9) while
// it worked in a temporary index leaves it behind; the next run that
// makes one removes it, and leaves alone the one of a live process.
func TestKilledRunsTemporaryIndexIsRemoved(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("os.TempDir does not follow TMPDIR on Windows")
	}
	t.Setenv("TMPDIR", t.TempDir())
	root := t.TempDir()
	writeGenerated(t, root, 5, "t", 1)
	cache := unwritableCacheDir(t, t.TempDir())

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ASKLS_TEMP_CHILD_ROOT="+root, "ASKLS_TEMP_CHILD_CACHE="+cache)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("the child did not name its temporary index: %v", err)
	}
	dead := line[:len(line)-1]
	cmd.Process.Kill() // SIGKILL: nothing of askls runs after it
	cmd.Wait()
	if _, err := os.Stat(dead); err != nil {
		t.Fatalf("the killed process's temporary index %s is not there to remove: %v", dead, err)
	}
	backdate(t, dead)

	live := openFixture(t, root, cache)
	defer live.ix.Close()
	if !live.ix.roots[0].temp {
		t.Fatal("not a temporary index")
	}
	backdate(t, live.ix.roots[0].cache)

	next := openFixture(t, root, cache)
	defer next.ix.Close()
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the killed process's temporary index is still there: %v", err)
	}
	if _, err := os.Stat(live.ix.roots[0].cache); err != nil {
		t.Errorf("a live process's temporary index was removed: %v", err)
	}
}
