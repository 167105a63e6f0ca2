package index

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/index/store"
	"github.com/blevesearch/bleve/v2"
)

// TestCacheChecksItself: a deleted bleve folder, a flipped byte or 4 KB
// of random bytes in the middle of the manifest (after a warm start that
// checked it), and a bleve index that lost documents are each detected
// on open and rebuilt, with one log line saying why; before, each gave empty or wrong answers for good while
// `askls index` reported every file unchanged.
func TestCacheChecksItself(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 200, "c", 1)
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, cache string)
		why    string
	}{
		{"bleve folder deleted", func(t *testing.T, cache string) {
			os.RemoveAll(filepath.Join(cache, store.BleveDir))
		}, "its bleve folder is missing"},
		{"one byte flipped in the manifest", func(t *testing.T, cache string) {
			mf := filepath.Join(cache, store.ManifestFile)
			data, _ := os.ReadFile(mf)
			data[len(data)/2] ^= 0x10
			os.WriteFile(mf, data, 0o644)
		}, "checksum does not match"},
		{"4 KB of random bytes in the manifest", func(t *testing.T, cache string) {
			mf := filepath.Join(cache, store.ManifestFile)
			data, _ := os.ReadFile(mf)
			rand.New(rand.NewSource(1)).Read(data[len(data)/2-2048 : len(data)/2+2048])
			os.WriteFile(mf, data, 0o644)
		}, "checksum does not match"},
		{"bleve lost documents", func(t *testing.T, cache string) {
			bi, err := bleve.OpenUsing(filepath.Join(cache, store.BleveDir), map[string]interface{}{"unsafe_batch": false})
			if err != nil {
				t.Fatal(err)
			}
			b := bi.NewBatch()
			for n := 0; n < 3; n++ {
				b.Delete(store.DocID("pkg00/f0000.go", n))
				b.Delete(store.DocID("pkg01/f0001.go", n))
			}
			if err := bi.Batch(b); err != nil {
				t.Fatal(err)
			}
			bi.Close()
		}, "documents where the manifest lists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			f := openFixture(t, root, cache)
			rootCache := f.ix.roots[0].cache
			f.ix.Close()
			// A warm start first: it records the manifest as checked
			// (store.ManifestCheckedFile); the damage must still be seen.
			f = openFixture(t, root, cache)
			f.ix.Close()
			tc.damage(t, rootCache)
			f = openFixture(t, root, cache)
			defer f.ix.Close()
			if n := strings.Count(f.log.String(), "rebuilding the index"); n != 1 || !strings.Contains(f.log.String(), tc.why) {
				t.Errorf("want one rebuild line saying %q; log:\n%s", tc.why, f.log)
			}
			if f.stats.Indexed != 200 {
				t.Errorf("stats after the damage: %+v, want 200 re-indexed", f.stats)
			}
			for _, i := range []int{0, 1, 150} {
				if hits := search(t, f.ix, marker("c", i)); len(hits) == 0 {
					t.Errorf("file %d is not found after the rebuild", i)
				}
			}
		})
	}
}

// TestSyncNeverReportsSuccessOverAnIndexThatCannotAnswer: documents lost
// behind the index's back while it is open are found by the sync's check.
func TestSyncNeverReportsSuccessOverAnIndexThatCannotAnswer(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 50, "d", 1)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	r := f.ix.roots[0]
	b := r.bi.NewBatch()
	b.Delete(store.DocID("pkg00/f0000.go", 0))
	if err := r.bi.Batch(b); err != nil {
		t.Fatal(err)
	}
	_, err := f.ix.Sync(context.Background())
	if err == nil || !strings.Contains(err.Error(), "bleve holds 99 documents where the index lists 100") || !strings.Contains(err.Error(), "rebuilds") {
		t.Fatalf("Sync over a damaged index: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.cache, store.ManifestFile)); err == nil {
		t.Errorf("the manifest is still there: the next start would trust it")
	}
}

// TestRestartTrustsWhatItWrote: the checks of the manifest accept every
// manifest askls writes, including the odd chunks of a Go file that ends
// in a syntax error without a newline (an empty chunk whose end is before
// its start, from GOROOT's syntax/testdata/issue20789.go): the second
// start re-indexes nothing and logs no rebuild.
func TestRestartTrustsWhatItWrote(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 20, "e", 1)
	os.WriteFile(filepath.Join(root, "issue20789.go"), []byte("// Line 9 must end in EOF.\n\n\n\n\n\n\npackage e\nfunc([<-chan<-[func u){go"), 0o644)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	f.ix.Close()
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if f.stats.Indexed != 0 || strings.Contains(f.log.String(), "rebuilding") {
		t.Errorf("the second start rebuilt: %+v\n%s", f.stats, f.log)
	}
}

// TestJournalWriteErrorIsNotDiscarded: when the crash journal cannot be
// written, the failure is logged once and the manifest is removed before
// the batch (a crash then means a rebuild, not a manifest that no longer
// describes bleve); the next save writes it again.
func TestJournalWriteErrorIsNotDiscarded(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 10, "j", 1)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	r := f.ix.roots[0]
	r.journal.Close() // every write fails from now on
	for i := 0; i < 2; i++ {
		gen := f.ix.Update("pkg00/f0000.go", []byte(fmt.Sprintf("package p\n\nfunc Edited%d() {}\n", i)))
		f.ix.WaitFor(context.Background(), gen)
	}
	if n := strings.Count(f.log.String(), "cannot write the crash journal"); n != 1 {
		t.Errorf("%d log lines about the journal, want 1:\n%s", n, f.log)
	}
	if _, err := os.Stat(filepath.Join(r.cache, store.ManifestFile)); err == nil {
		t.Errorf("the manifest is still there while bleve changes without a journal")
	}
	r.journal = nil
	f.ix.Close()
	if _, err := os.Stat(filepath.Join(r.cache, store.ManifestFile)); err != nil {
		t.Errorf("Close did not save the manifest again: %v", err)
	}
}
