package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testKeyBody = "MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n"

func TestSecretRulesFollowSymlinksAndManPages(t *testing.T) {
	root := t.TempDir()
	write := func(p, c string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	write(".env", "DB_PASSWORD=hunter2secretvalue\n")
	write("notes.txt", "-----BEGIN PRIVATE KEY-----\n"+testKeyBody+"-----END PRIVATE KEY-----\n")
	write("man/man7/config.7", ".TH CONFIG 7\n.SS key\nA client key, e.g.\n.P\n.RS 2\n.nf\nkey=\"-----BEGIN PRIVATE KEY-----\\\\nXXXX\\\\nXXXX\\\\n-----END PRIVATE KEY-----\"\n.fi\n.RE\n")
	write(".kube/config", "users:\n- user:\n    token: kubeTOKENsecretvalue0123456789\n")
	os.Symlink(".env", filepath.Join(root, "config.txt"))
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	snap := f.ix.Snapshot()
	if _, ok := snap.st.files["man/man7/config.7"]; !ok {
		t.Errorf("the man page with a placeholder key is not indexed (skipped: %v)", f.stats.Skipped)
	}
	for _, p := range []string{"config.txt", ".env", ".kube/config", "notes.txt"} {
		if _, ok := snap.st.files[p]; ok {
			t.Errorf("%s is indexed", p)
		}
	}
	if _, err := snap.Content("config.txt"); err == nil {
		t.Errorf("a symlink to .env is readable")
	}
	if c, err := snap.Content("notes.txt"); err != nil || strings.Contains(string(c), "MC4CAQAw") {
		t.Errorf("notes.txt: %q %v", c, err)
	}
	if hits := search(t, f.ix, "hunter2secretvalue"); len(hits) != 0 {
		t.Errorf("the secret behind a symlink is searchable: %+v", hits)
	}
}

// TestOpenBuffersAreMaskedOrRefused: an open buffer is masked when it is
// handed to the index; one over the size limit (not masked, to keep each
// keystroke cheap) is never read out.
func TestOpenBuffersAreMaskedOrRefused(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	small := "package x\n\nconst K = \"AKIAIOSFODNN7EXAMPLE\"\n"
	big := small + strings.Repeat("// filler\n", (2<<20)/10)
	f.ix.Update("small.go", []byte(small))
	f.ix.Update("big.go", []byte(big))
	snap := f.ix.Snapshot()
	if c, err := snap.Content("small.go"); err != nil || strings.Contains(string(c), "IOSFODNN7EXAMPLE") || len(c) != len(small) {
		t.Errorf("small buffer: %q %v", c, err)
	}
	if _, err := snap.Content("big.go"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a buffer over the size limit was read out: %v", err)
	}
	if ms, _ := snap.Grep(context.Background(), "IOSFODNN7EXAMPLE", "", 10); len(ms) != 0 {
		t.Errorf("grep found the key: %+v", ms)
	}
}
