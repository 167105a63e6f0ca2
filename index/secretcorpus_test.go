package index

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/askls/askls/internal/secretcorpus"
)

// TestSecretCorpusReachesNoIndexRoute plants the secrets corpus (fake
// credentials in more than 40 formats, secret names, symlinks with
// ordinary names) and reads it through every route of a snapshot: file
// lists, reads, grep, search (hits and excerpts), outlines, the index's
// log; first from disk, then with every file open in the editor. No
// planted value comes out; the ordinary files stay readable and
// searchable.
func TestSecretCorpusReachesNoIndexRoute(t *testing.T) {
	if n := secretcorpus.Formats(); n < 40 {
		t.Fatalf("the corpus plants %d formats, want at least 40", n)
	}
	root := secretcorpus.Write(t)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	ctx := context.Background()
	files := secretcorpus.Files()
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	for l := range secretcorpus.Links {
		paths = append(paths, l)
	}
	drive := func(when string) {
		t.Helper()
		snap := f.ix.Snapshot()
		var out strings.Builder
		list, _ := snap.Files("")
		fmt.Fprintln(&out, list)
		for _, p := range paths {
			if c, err := snap.Content(p); err == nil {
				out.Write(c)
			}
			if tx, err := snap.Read(p, 1, 0); err == nil {
				out.WriteString(tx.Content)
			}
			if o, err := snap.Outline(p); err == nil {
				fmt.Fprintln(&out, o)
			}
		}
		for _, pat := range []string{".", "fake", "FAKE", "secret", "token", "key"} {
			ms, _ := snap.Grep(ctx, pat, "", 10000)
			fmt.Fprintln(&out, ms)
		}
		queries := []string{"password", "secret key", "token", "private key", "api key", "DB_PASSWORD", "credentials"}
		for _, l := range secretcorpus.Leaks() {
			queries = append(queries, l.Value, strings.TrimSuffix(path.Base(l.Path), path.Ext(l.Path)))
		}
		for _, q := range queries {
			if strings.Trim(q, ".-_") == "" {
				continue
			}
			hits, err := snap.Search(ctx, q, 20, Filter{})
			if err != nil {
				t.Fatalf("Search(%q): %v", q, err)
			}
			fmt.Fprintln(&out, hits)
		}
		secretcorpus.Check(t, when, out.String())
		secretcorpus.Check(t, when+": the index's log", f.log.String())
		if c, err := snap.Content("app/handler.go"); err != nil || string(c) != files["app/handler.go"] {
			t.Errorf("%s: an ordinary file is not read as it is: %q %v", when, c, err)
		}
		if hits, _ := snap.Search(ctx, "Handle DB_PASSWORD environment", 5, Filter{}); len(hits) == 0 || hits[0].Path != "app/handler.go" {
			t.Errorf("%s: the ordinary file is not found: %+v", when, hits)
		}
		if c, err := snap.Content("docs/keys.md"); err != nil || string(c) != files["docs/keys.md"] {
			t.Errorf("%s: a page with a placeholder key is masked or refused: %q %v", when, c, err)
		}
	}
	drive("from disk")
	var gen uint64
	for _, p := range paths {
		if c, ok := files[p]; ok {
			gen = f.ix.Update(p, []byte(c))
		} else {
			gen = f.ix.Update(p, []byte(files[".env"])) // what the editor shows through the link
		}
	}
	drive("open, before the writer")
	if err := f.ix.WaitFor(ctx, gen); err != nil {
		t.Fatal(err)
	}
	drive("open, indexed")
}
