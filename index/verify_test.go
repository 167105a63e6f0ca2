package index

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/askls/askls/index/store"
	"github.com/blevesearch/bleve/v2"
	bindex "github.com/blevesearch/bleve_index_api"
)

// TestCheckStoreMarksDamageForTheNextOpen: segments damaged while the
// index is open are found by CheckStore (what a server calls after a
// search panicked), and the next Open rebuilds them with one log line.
func TestCheckStoreMarksDamageForTheNextOpen(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 100, "v", 1)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	if err := f.ix.CheckStore(); err != nil {
		t.Fatalf("CheckStore of a sound index: %v", err)
	}
	damageSegments(t, f.ix.roots[0].cache, 9)
	err := f.ix.CheckStore()
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("CheckStore of damaged segments: %v", err)
	}
	f.ix.Close()
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if n := strings.Count(f.log.String(), "rebuilding the index"); n != 1 || !strings.Contains(f.log.String(), "found damaged while in use") {
		t.Errorf("want one rebuild line; log:\n%s", f.log)
	}
	if f.stats.Indexed != 100 {
		t.Errorf("stats: %+v, want 100 re-indexed", f.stats)
	}
	if hits := searchNoPanic(t, f.ix, marker("v", 7)); len(hits) == 0 {
		t.Error("not found after the rebuild")
	}
}

// panicky is a bleve index whose searches panic, as zapx's do on a
// damaged segment (slice bounds out of range).
type panicky struct{ bleveIndex }

func (panicky) SearchInContext(context.Context, *bleve.SearchRequest) (*bleve.SearchResult, error) {
	panic("runtime error: slice bounds out of range [:5] with capacity 1")
}

// TestSearchPanicOnDamagedStoreIsAnError: a search that panics over
// damaged segments returns an error wrapping ErrDamaged instead, tells
// Options.OnDamaged once, and the next Open rebuilds; a panic over sound
// segments is an error too, and marks nothing.
func TestSearchPanicOnDamagedStoreIsAnError(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 50, "g", 1)
	cache := t.TempDir()
	var told []error
	log := &logBuffer{}
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: cache,
		Logger: slog.New(slog.NewTextHandler(log, nil)), OnDamaged: func(err error) { told = append(told, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := ix.roots[0]
	g := r.bi.(*guarded)
	g.bleveIndex = panicky{g.bleveIndex}
	if _, err := ix.Snapshot().Search(context.Background(), marker("g", 3), 10, Filter{}); err == nil || errors.Is(err, ErrDamaged) {
		t.Errorf("a panic over sound segments: %v", err)
	}
	if store.DamagedMark(r.cache) != "" || len(told) != 0 {
		t.Errorf("sound segments marked damaged")
	}
	damageSegments(t, r.cache, 5)
	for range 2 {
		if _, err := ix.Snapshot().Search(context.Background(), marker("g", 3), 10, Filter{}); !errors.Is(err, ErrDamaged) {
			t.Errorf("a panic over damaged segments: %v", err)
		}
	}
	if len(told) != 1 || store.DamagedMark(r.cache) == "" {
		t.Errorf("OnDamaged told %d times, mark %q", len(told), store.DamagedMark(r.cache))
	}
	ix.Close()
	f := openFixture(t, root, cache)
	defer f.ix.Close()
	if n := strings.Count(f.log.String(), "rebuilding the index"); n != 1 {
		t.Errorf("want one rebuild line; log:\n%s", f.log)
	}
	if hits := searchNoPanic(t, f.ix, marker("g", 3)); len(hits) == 0 {
		t.Error("not found after the rebuild")
	}
}

// readerPanics is a root's index whose term dictionary reads panic, as
// reads of a damaged segment do.
type readerPanics struct{ bleveIndex }

func (readerPanics) Advanced() (bindex.Index, error) {
	panic("runtime error: slice bounds out of range [600086:26745]")
}

// The term statistics a query is planned with (docFreq: the lookup's
// common parts, the abbreviations) read the store before the guarded
// search: a panic there counts nothing, and the search still answers.
func TestTermStatisticsSurviveAPanickingStore(t *testing.T) {
	f := newFixture(t, "rank_lookup_parts.txtar")
	f.ix.roots[0].bi = readerPanics{f.ix.roots[0].bi}
	snap := f.ix.Snapshot()
	if df := snap.docFreq(context.Background(), store.FieldContent, "token"); df != 0 {
		t.Errorf("docFreq over a panicking store = %d, want 0", df)
	}
	f.ix.rank.LookupPartPostings = 1
	if _, err := snap.Search(context.Background(), "which maxTokenSize is the largest size a token reader checks", 10, Filter{}); err != nil {
		t.Errorf("Search: %v", err)
	}
	if _, err := snap.Search(context.Background(), "maxTokenSize", 10, Filter{}); err != nil {
		t.Errorf("Search(maxTokenSize): %v", err)
	}
}
