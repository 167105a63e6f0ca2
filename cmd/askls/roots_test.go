//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRootsThatCannotBeIndexedEndWithAClearMessage runs askls as a user
// would at /, in $HOME, on /proc and on a tree over the walk's budget:
// each ends with a message naming the root and why, a non-zero exit, and a
// peak RSS far below what reading such a tree whole would take (before:
// `cd / && askls ask` grew to 23.8 GB).
func TestRootsThatCannotBeIndexedEndWithAClearMessage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS and /proc are read the Linux way")
	}
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "a.go"), []byte("package a\n"), 0o644)
	big := t.TempDir()
	for i := 0; i < 1500; i++ {
		dir := filepath.Join(big, fmt.Sprintf("d%02d", i%30))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.go", i)), []byte(fmt.Sprintf("package d\n\nvar V%d = 1\n", i)), 0o644)
	}
	const maxRSS = 400 << 20 // generous: an empty index is about 30 MB
	for _, tc := range []struct {
		name, dir string
		args      []string
		want      []string
	}{
		{"ask at /", "/", []string{"ask", "--no-model", "where is main"}, []string{"not indexing /", "root of the file system", "--allow-broad-root"}},
		{"index at /", "/", []string{"index"}, []string{"not indexing /", "root of the file system"}},
		{"index in $HOME", home, []string{"index"}, []string{"not indexing " + home, "home folder"}},
		{"search in $HOME", home, []string{"search", "x"}, []string{"home folder"}},
		{"index /proc", home, []string{"index", "--root", "/proc"}, []string{"/proc", "special file system"}},
		{"index an oversized tree", home, []string{"index", "--root", big, "--max-files", "1000"}, []string{big, "more than 1000 files", "--max-files"}},
		{"index / when allowed, over budget", "/", []string{"index", "--allow-broad-root", "--max-files", "3000"}, []string{"more than 3000 files"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], tc.args...)
			cmd.Dir = tc.dir
			cmd.Env = append(asklsEnv(t, nil), "HOME="+home)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("timed out; stderr:\n%s", errb.String())
			}
			if err == nil {
				t.Errorf("exit 0, want an error; stdout:\n%s", out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr does not say %q:\n%s", w, errb.String())
				}
			}
			if strings.Contains(errb.String(), "goroutine ") {
				t.Errorf("a crash:\n%s", errb.String())
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
			if rss > maxRSS {
				t.Errorf("peak RSS %d MB, want under %d MB", rss>>20, maxRSS>>20)
			}
			t.Logf("peak RSS %d MB", rss>>20)
		})
	}
}
