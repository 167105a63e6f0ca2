package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretBuffersByTheirTarget: an open buffer whose path is a symlink
// (or a chain of them) to a secret file is the secret file. With
// config.txt -> .env and chain.txt -> config.txt open in the editor, no
// read, grep, list, search or index generation lets DB_PASSWORD's value
// out, before or after the writer catches up. Before, both buffers were
// indexed, searched and read out under their ordinary names.
func TestSecretBuffersByTheirTarget(t *testing.T) {
	root := t.TempDir()
	env := "DB_PASSWORD=hunter2buffered\nAPI_TOKEN=tok3nbufferedvalue\n"
	os.WriteFile(filepath.Join(root, ".env"), []byte(env), 0o644)
	os.WriteFile(filepath.Join(root, "app.go"), []byte("package app\n\n// DB_PASSWORD is read from the environment.\nconst name = \"DB_PASSWORD\"\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "conf"), 0o755)
	os.Symlink(".env", filepath.Join(root, "config.txt"))
	os.Symlink("config.txt", filepath.Join(root, "chain.txt"))
	os.Symlink("../.env", filepath.Join(root, "conf", "settings.ini"))
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	ctx := context.Background()
	check := func(when string) {
		t.Helper()
		snap := f.ix.Snapshot()
		for _, p := range []string{"config.txt", "chain.txt", "conf/settings.ini", ".env"} {
			if c, err := snap.Content(p); err == nil {
				t.Errorf("%s: %s is read out: %q", when, p, c)
			}
			if _, err := snap.Read(p, 1, 0); err == nil {
				t.Errorf("%s: %s is readable", when, p)
			}
			if _, ok := snap.st.files[p]; ok {
				t.Errorf("%s: %s is indexed", when, p)
			}
		}
		if ms, _ := snap.Grep(ctx, "hunter2|tok3n", "", 20); len(ms) != 0 {
			t.Errorf("%s: grep finds the secret: %+v", when, ms)
		}
		files, _ := snap.Files("")
		for _, p := range files {
			if p == "config.txt" || p == "chain.txt" || p == "conf/settings.ini" {
				t.Errorf("%s: %s is listed", when, p)
			}
		}
		for _, q := range []string{"DB_PASSWORD", "DB_PASSWORD hunter2buffered", "API_TOKEN"} {
			hits, err := snap.Search(ctx, q, 20, Filter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				if h.Path != "app.go" || strings.Contains(h.Excerpt, "hunter2") || strings.Contains(h.Excerpt, "tok3n") {
					t.Errorf("%s: %q finds %s: %q", when, q, h.Path, h.Excerpt)
				}
			}
		}
	}
	var gen uint64
	for _, p := range []string{"config.txt", "chain.txt", "conf/settings.ini"} {
		gen = f.ix.Update(p, []byte(env))
	}
	check("open, before the writer")
	if err := f.ix.WaitFor(ctx, gen); err != nil {
		t.Fatal(err)
	}
	check("open, indexed")
	gen = f.ix.Update("chain.txt", []byte(env+"EXTRA=1\n"))
	f.ix.WaitFor(ctx, gen)
	check("edited")
	for _, p := range []string{"config.txt", "chain.txt", "conf/settings.ini"} {
		gen = f.ix.Release(p)
	}
	f.ix.WaitFor(ctx, gen)
	check("closed")
	if strings.Contains(f.log.String(), "cannot read a changed file") {
		t.Errorf("a secret buffer's path is logged as unreadable:\n%s", f.log.String())
	}
}
