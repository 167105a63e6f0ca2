package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askls/askls/index/store"
	fx "github.com/askls/askls/internal/fixture"
)

// logBuffer collects log lines for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// writeTxtar extracts a txtar fixture from testdata into a new folder.
func writeTxtar(t *testing.T, name string) string {
	t.Helper()
	return fx.Write(t, filepath.Join("testdata", name))
}

type fixture struct {
	root, cache string
	ix          *Index
	log         *logBuffer
	stats       SyncStats
}

// open opens and syncs the index of root with cache.
func openFixture(t *testing.T, root, cache string) *fixture {
	t.Helper()
	f := &fixture{root: root, cache: cache, log: &logBuffer{}}
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: cache,
		Logger: slog.New(slog.NewTextHandler(f.log, nil)), Debounce: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.ix = ix
	f.stats, err = ix.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func newFixture(t *testing.T, name string) *fixture {
	t.Helper()
	f := openFixture(t, writeTxtar(t, name), t.TempDir())
	t.Cleanup(func() { f.ix.Close() })
	return f
}

func search(t *testing.T, ix *Index, q string) []Hit {
	t.Helper()
	hits, err := ix.Snapshot().Search(context.Background(), q, 10, Filter{})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return hits
}

func TestWalkFollowsIgnoreRules(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	files, err := f.ix.Snapshot().Files("")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cart/cart.go", "cart/cart_test.go", "go.mod", "keep.log", "notes/README.md", "shipping/rates.py"}
	// The ignore files themselves are text files of the workspace.
	want = append(want, ".asklsignore", ".gitignore")
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Errorf("Files() =\n%q\nwant\n%q", files, want)
	}
	if f.stats.Skipped["secret"] != 2 {
		t.Errorf("secrets skipped = %d, want 2 (.env, server.pem); skipped: %v", f.stats.Skipped["secret"], f.stats.Skipped)
	}
}

func TestSearchRanksTheDefiningChunkFirst(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	for _, c := range []struct {
		q, path, symbol string
		start           int
	}{
		{"TotalPrice", "cart/cart.go", "TotalPrice", 25},
		{"how is the shipping cost of a parcel computed", "shipping/rates.py", "", 0},
		{"ErrEmptyCart", "cart/cart.go", "", 0},
		{"warehouseLogMarker", "keep.log", "", 0},
	} {
		hits := search(t, f.ix, c.q)
		if len(hits) == 0 {
			t.Errorf("Search(%q): no hits", c.q)
			continue
		}
		h := hits[0]
		if h.Path != c.path || (c.symbol != "" && h.Symbol != c.symbol) || (c.start != 0 && h.Start != c.start) {
			t.Errorf("Search(%q)[0] = %s:%d-%d %s, want %s:%d %s", c.q, h.Path, h.Start, h.End, h.Symbol, c.path, c.start, c.symbol)
		}
		if h.Excerpt == "" {
			t.Errorf("Search(%q)[0] has no excerpt", c.q)
		}
	}
}

func TestSearchPhraseAndFilters(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	hits := search(t, f.ix, `"paid %d cents"`)
	if len(hits) != 1 || hits[0].Symbol != "Checkout" {
		t.Errorf("phrase hits = %+v, want Checkout only", hits)
	}
	if hits := search(t, f.ix, `"cents paid"`); len(hits) != 0 {
		t.Errorf("reversed phrase matched: %+v", hits)
	}
	snap := f.ix.Snapshot()
	hits, err := snap.Search(context.Background(), "TotalPrice", 10, Filter{NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if strings.HasSuffix(h.Path, "_test.go") {
			t.Errorf("NoTests returned %s", h.Path)
		}
	}
	hits, err = snap.Search(context.Background(), "price", 10, Filter{PathGlob: "**/*_test.go"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Path != "cart/cart_test.go" {
		t.Errorf("PathGlob hits = %+v", hits)
	}
	hits, err = snap.Search(context.Background(), "shipping", 10, Filter{Languages: []string{"python"}})
	if err != nil || len(hits) == 0 || hits[0].Language != "python" {
		t.Errorf("Languages hits = %+v, %v", hits, err)
	}
}

func TestGoOutlineAndSymbols(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	snap := f.ix.Snapshot()
	outline, err := snap.Outline("cart/cart.go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range outline {
		got = append(got, s.Kind+" "+s.QualifiedName())
	}
	want := []string{"var ErrEmptyCart", "struct Cart", "field Cart.Items", "field Cart.owner", "struct Item",
		"field Item.SKU", "field Item.Quantity", "field Item.PriceCents", "method Cart.TotalPrice", "method Cart.Checkout"}
	if !slices.Equal(got, want) {
		t.Errorf("Outline =\n%q\nwant\n%q", got, want)
	}
	syms := snap.Symbols("Cart.Checkout", 5)
	if len(syms) == 0 || syms[0].Line != 35 || syms[0].EndLine != 40 ||
		syms[0].Signature != "func (c *Cart) Checkout() (string, error)" {
		t.Errorf("Symbols(Cart.Checkout) = %+v", syms)
	}
	if syms := snap.Symbols("ShippingCalculator.shipping_cost", 5); len(syms) == 0 || syms[0].Path != "shipping/rates.py" || syms[0].Line != 10 {
		t.Errorf("Symbols(ShippingCalculator.shipping_cost) = %+v", syms)
	}
	syms = snap.Symbols("tot", 5)
	if len(syms) == 0 || syms[0].Name != "TotalPrice" {
		t.Errorf("Symbols(tot) = %+v", syms)
	}
}

func TestReadAndGrep(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	snap := f.ix.Snapshot()
	txt, err := snap.Read("cart/cart.go", 25, 26)
	if err != nil {
		t.Fatal(err)
	}
	if txt.Content != "// TotalPrice adds up the price of every item, in cents.\nfunc (c *Cart) TotalPrice() int {\n" || txt.Lines != 40 {
		t.Errorf("Read = %+v", txt)
	}
	if txt, err := snap.Read("cart/cart.go", 39, 1000); err != nil || txt.End != 40 {
		t.Errorf("Read clamp = %+v, %v", txt, err)
	}
	if _, err := snap.Read("cart/cart.go", 100, 120); !errors.Is(err, ErrBadQuery) {
		t.Errorf("Read past the end: err = %v", err)
	}
	if _, err := snap.Read("../etc/passwd", 1, 2); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("Read outside the root: err = %v", err)
	}
	if _, err := snap.Read(".env", 1, 2); !errors.Is(err, ErrNotFound) {
		t.Errorf("Read of a secret: err = %v", err)
	}
	ms, err := snap.Grep(context.Background(), `func \(c \*Cart\) \w+`, "cart/*.go", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Line != 26 || ms[1].Line != 35 {
		t.Errorf("Grep = %+v", ms)
	}
	if _, err := snap.Grep(context.Background(), `func (`, "", 10); !errors.Is(err, ErrBadQuery) {
		t.Errorf("Grep with a bad regexp: err = %v", err)
	}
}

func TestBadQueries(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	snap := f.ix.Snapshot()
	for _, q := range []string{"", "   ", strings.Repeat("word ", 2000)} {
		if _, err := snap.Search(context.Background(), q, 10, Filter{}); !errors.Is(err, ErrBadQuery) {
			t.Errorf("Search(%d chars): err = %v, want ErrBadQuery", len(q), err)
		}
	}
	if hits := search(t, f.ix, "the of and"); hits == nil {
		// only stop words: searched as they are, no error
		t.Log("no hits for stop words")
	}
	if _, err := Open(context.Background(), Options{Roots: []string{filepath.Join(t.TempDir(), "nope")}}); err == nil ||
		!strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Open(missing root) = %v", err)
	}
}

func TestUpdateReleaseChanged(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	ctx := context.Background()
	src := "package cart\n\n// ApplyCoupon takes a discount off.\nfunc ApplyCoupon(c *Cart, pct int) {}\n"
	gen := f.ix.Update("cart/coupon.go", []byte(src))
	// Visible at once to Read, before the writer ran.
	if txt, err := f.ix.Snapshot().Read("cart/coupon.go", 3, 3); err != nil || txt.Content != "// ApplyCoupon takes a discount off.\n" {
		t.Fatalf("Read of an open buffer = %+v, %v", txt, err)
	}
	if err := f.ix.WaitFor(ctx, gen); err != nil {
		t.Fatal(err)
	}
	hits := search(t, f.ix, "ApplyCoupon")
	if len(hits) == 0 || hits[0].Path != "cart/coupon.go" || hits[0].Symbol != "ApplyCoupon" {
		t.Fatalf("after Update: %+v", hits)
	}
	// Edit an existing file in a buffer: the old text is gone from search.
	data, _ := os.ReadFile(filepath.Join(f.root, "cart/cart.go"))
	edited := strings.Replace(string(data), "TotalPrice", "GrandTotal", -1)
	f.ix.WaitFor(ctx, f.ix.Update("cart/cart.go", []byte(edited)))
	for _, h := range search(t, f.ix, "GrandTotal") {
		if h.Path == "cart/cart.go" {
			goto found
		}
	}
	t.Errorf("edited buffer not searchable")
found:
	for _, h := range search(t, f.ix, "TotalPrice") {
		if h.Path == "cart/cart.go" && strings.Contains(h.Excerpt, "TotalPrice") {
			t.Errorf("old text still found in the edited file: %+v", h)
		}
	}
	// Release: back to disk, where coupon.go does not exist.
	f.ix.WaitFor(ctx, f.ix.Release("cart/coupon.go"))
	f.ix.WaitFor(ctx, f.ix.Release("cart/cart.go"))
	for _, h := range search(t, f.ix, "ApplyCoupon GrandTotal") {
		if h.Path == "cart/coupon.go" || strings.Contains(h.Excerpt, "GrandTotal") {
			t.Errorf("released buffer still found: %+v", h)
		}
	}
	if _, err := f.ix.Snapshot().Read("cart/coupon.go", 1, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Read of a released new file: %v", err)
	}
	// Changed: a file deleted on disk leaves the index.
	os.Remove(filepath.Join(f.root, "shipping/rates.py"))
	f.ix.WaitFor(ctx, f.ix.Changed(filepath.Join(f.root, "shipping/rates.py")))
	for _, h := range search(t, f.ix, "shipping_cost") {
		if h.Path == "shipping/rates.py" {
			t.Errorf("deleted file still found: %+v", h)
		}
	}
	if syms := f.ix.Snapshot().Symbols("ShippingCalculator", 5); len(syms) != 0 {
		t.Errorf("deleted file's symbols remain: %+v", syms)
	}
}

func TestRestartIsIncremental(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	first := f.stats
	if err := f.ix.Close(); err != nil {
		t.Fatal(err)
	}
	// Nothing changed.
	f = openFixture(t, root, cache)
	if f.stats.Indexed != 0 || f.stats.Unchanged != first.Indexed {
		t.Errorf("warm restart: %+v (first: %+v)", f.stats, first)
	}
	f.ix.Close()
	// Edit, rename, delete, touch.
	os.WriteFile(filepath.Join(root, "notes/README.md"), []byte("# Shop notes\n\nParcels leave at dawn.\n"), 0o644)
	os.Rename(filepath.Join(root, "shipping/rates.py"), filepath.Join(root, "shipping/costs.py"))
	os.Remove(filepath.Join(root, "cart/cart_test.go"))
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(root, "go.mod"), later, later)
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if f.stats.Indexed != 2 || f.stats.Removed != 2 {
		t.Errorf("after edit+rename+delete: %+v, want 2 indexed, 2 removed", f.stats)
	}
	if hits := search(t, f.ix, "dawn"); len(hits) != 1 || hits[0].Path != "notes/README.md" {
		t.Errorf("edited file: %+v", hits)
	}
	if hits := search(t, f.ix, "ShippingCalculator"); len(hits) != 1 || hits[0].Path != "shipping/costs.py" {
		t.Errorf("renamed file: %+v", hits)
	}
	for _, h := range search(t, f.ix, "TestTotalPrice") {
		if h.Path == "cart/cart_test.go" {
			t.Errorf("deleted file: %+v", h)
		}
	}
}

func TestRecoversFromAnInterruptedWrite(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	// An edit reaches bleve but the process dies before the manifest is
	// saved: simulated by closing bleve behind the index's back.
	f.ix.WaitFor(context.Background(), f.ix.Update("cart/cart.go", []byte("package cart\n\nfunc Interrupted() {}\n")))
	f.ix.persist.Wait()
	f.ix.closeOnce.Do(func() {
		close(f.ix.done)
		<-f.ix.writerDone
		f.ix.closeRoots()
	})
	f = openFixture(t, root, cache)
	if !strings.Contains(f.log.String(), "were being written when askls last stopped") {
		t.Errorf("no log line about the interrupted write; log:\n%s", f.log)
	}
	if hits := search(t, f.ix, "Interrupted"); len(hits) != 0 {
		t.Errorf("the buffer's content survived the restart: %+v", hits)
	}
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("the disk content was not re-indexed: %+v", hits)
	}
	f.ix.Close()
	// A manifest that is gone: rebuilt from scratch, with a log line.
	os.Remove(filepath.Join(f.ix.roots[0].cache, store.ManifestFile))
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if !strings.Contains(f.log.String(), "rebuilding the index") {
		t.Errorf("no log line about the rebuild; log:\n%s", f.log)
	}
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("after a rebuild: %+v", hits)
	}
}

func TestBadFiles(t *testing.T) {
	root := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.go", []byte("package ok\n\nfunc Fine() {}\n"))
	write("latin1.txt", []byte("caf\xe9 cr\xe8me\n"))
	write("blob.dat2", []byte("abc\x00\x01\x02def"))
	big, err := os.Create(filepath.Join(root, "huge.log"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(50 << 20) // 50 MB, sparse
	big.Close()
	os.Symlink(filepath.Join(root, "missing.go"), filepath.Join(root, "broken.go"))
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package secret\nfunc Outside() {}\n"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(root, "escape.go"))
	os.Symlink(filepath.Join(root, "ok.go"), filepath.Join(root, "alias.go"))
	write("broken_syntax.go", []byte("package broken\n\nfunc Half( {\n\tMarkerInBrokenFile()\n"))
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	want := map[string]int{"not utf-8": 1, "binary": 1, "too large": 1, "broken symlink": 1, "symlink out of root": 1}
	for k, v := range want {
		if f.stats.Skipped[k] != v {
			t.Errorf("skipped[%q] = %d, want %d (all: %v)", k, f.stats.Skipped[k], v, f.stats.Skipped)
		}
	}
	files, _ := f.ix.Snapshot().Files("")
	if !slices.Equal(files, []string{"alias.go", "broken_syntax.go", "ok.go"}) {
		t.Errorf("Files = %q", files)
	}
	if hits := search(t, f.ix, "Outside"); len(hits) != 0 {
		t.Errorf("a file outside the root was indexed: %+v", hits)
	}
	if _, err := f.ix.Snapshot().Read("escape.go", 1, 1); err == nil {
		t.Errorf("Read followed a symlink out of the root")
	}
	if hits := search(t, f.ix, "MarkerInBrokenFile"); len(hits) == 0 || hits[0].Path != "broken_syntax.go" {
		t.Errorf("a Go file that does not parse is not searchable: %+v", hits)
	}
	// A file that vanishes after the walk: Changed removes it quietly.
	os.Remove(filepath.Join(root, "ok.go"))
	f.ix.WaitFor(context.Background(), f.ix.Changed("ok.go"))
	if hits := search(t, f.ix, "Fine"); len(hits) != 1 || hits[0].Path != "alias.go" {
		t.Errorf("after ok.go vanished: %+v", hits)
	}
}

func TestUnreadableFolderIsSkippedWithACount(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not stop root from reading a folder")
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	locked := filepath.Join(root, "locked")
	os.MkdirAll(locked, 0o755)
	os.WriteFile(filepath.Join(locked, "b.go"), []byte("package b\n"), 0o644)
	os.Chmod(locked, 0)
	defer os.Chmod(locked, 0o755)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	if f.stats.Skipped["unreadable folder"] != 1 || f.stats.Files != 1 {
		t.Errorf("stats = %+v, want 1 file and 1 unreadable folder", f.stats)
	}
}

func TestCorruptManifestIsRebuilt(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	f.ix.Close()
	mf := filepath.Join(f.ix.roots[0].cache, store.ManifestFile)
	data, err := os.ReadFile(mf)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mf, data[:len(data)/2], 0o644) // torn
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if !strings.Contains(f.log.String(), "rebuilding the index") || !strings.Contains(f.log.String(), "manifest cannot be used") {
		t.Errorf("no rebuild log line for a torn manifest:\n%s", f.log)
	}
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("after the rebuild: %+v", hits)
	}
}

// builtCache indexes workspace.txtar into a new cache and closes it; it
// returns the root, the cache and the root's folder in it.
func builtCache(t *testing.T) (root, cache, dir string) {
	t.Helper()
	root, cache = writeTxtar(t, "workspace.txtar"), t.TempDir()
	f := openFixture(t, root, cache)
	f.ix.Close()
	return root, cache, f.ix.roots[0].cache
}

// TestOldManifestFormatIsRebuilt: a cache written by an askls that kept
// its manifest in the older gob file is rebuilt once, and the log says
// why (not that the first indexing did not finish).
func TestOldManifestFormatIsRebuilt(t *testing.T) {
	root, cache, dir := builtCache(t)
	if err := os.Rename(filepath.Join(dir, store.ManifestFile), filepath.Join(dir, store.OldManifestFile)); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, root, cache)
	defer f.ix.Close()
	if log := f.log.String(); !strings.Contains(log, "written by an older askls") || strings.Contains(log, "did not finish") {
		t.Errorf("log line for an older manifest format:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(dir, store.OldManifestFile)); err == nil {
		t.Errorf("the old manifest is still there")
	}
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("after the rebuild: %+v", hits)
	}
}

// TestPreviousManifestLayoutIsRebuilt: a cache whose manifest is in the
// layout before the entries' table (ASKLSMF2, its checksum right) is
// rebuilt once, the log saying it was written by an older askls, and
// answers as before.
func TestPreviousManifestLayoutIsRebuilt(t *testing.T) {
	root, cache, dir := builtCache(t)
	old := append([]byte("ASKLSMF2"), 18, 0) // version 18, an empty root
	old = binary.LittleEndian.AppendUint32(old, crc32.Checksum(old, crc32.MakeTable(crc32.Castagnoli)))
	if err := os.WriteFile(filepath.Join(dir, store.ManifestFile), old, 0o644); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, root, cache)
	defer f.ix.Close()
	if log := f.log.String(); !strings.Contains(log, "written by an older askls") || f.stats.Indexed == 0 {
		t.Errorf("want one rebuild saying the manifest is older: %+v\n%s", f.stats, log)
	}
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("after the rebuild: %+v", hits)
	}
	f.ix.Close()
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if f.stats.Indexed != 0 || strings.Contains(f.log.String(), "rebuilding") {
		t.Errorf("the next start rebuilt again: %+v\n%s", f.stats, f.log)
	}
}

// TestConcurrentReadersAndWriter edits, reads and searches from several
// goroutines while a sync runs (run with -race).
func TestConcurrentReadersAndWriter(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	ctx := context.Background()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				snap := f.ix.Snapshot()
				snap.Search(ctx, "TotalPrice cart", 5, Filter{})
				snap.Symbols("Cart", 5)
				snap.Outline("cart/cart.go")
				snap.Grep(ctx, "func", "", 5)
				snap.Read("cart/cart.go", 1, 5)
				f.ix.Stats()
			}
		}(g)
	}
	var last uint64
	for i := 0; i < 30; i++ {
		last = f.ix.Update("cart/live.go", []byte(fmt.Sprintf("package cart\n\nfunc Live%d() {}\n", i)))
		if i == 10 {
			if _, err := f.ix.Sync(ctx); err != nil {
				t.Error(err)
			}
		}
	}
	if err := f.ix.WaitFor(ctx, last); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if hits := search(t, f.ix, "Live29"); len(hits) == 0 || hits[0].Path != "cart/live.go" {
		t.Errorf("last edit not searchable: %+v", hits)
	}
	if f.ix.Snapshot().Generation() < last {
		t.Errorf("generation %d < %d", f.ix.Snapshot().Generation(), last)
	}
}

// TestSkippedFilesAreNotCountedUnchanged: a second Sync counts a file
// skipped for its content (a NUL byte) as skipped again, not as unchanged,
// so that unchanged never exceeds the files in the index.
func TestSkippedFilesAreNotCountedUnchanged(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(root, "nul.txt"), []byte("text\x00more\n"), 0o644)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	first := f.stats
	f.ix.Close()
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	for i, st := range []SyncStats{first, f.stats} {
		if st.Files != 1 || st.Skipped["binary"] != 1 || st.Unchanged > st.Files {
			t.Errorf("sync %d: files %d, unchanged %d, skipped %v; want 1 file, 1 binary, unchanged <= files", i+1, st.Files, st.Unchanged, st.Skipped)
		}
	}
	if f.stats.Unchanged != 1 {
		t.Errorf("second sync: unchanged %d, want 1", f.stats.Unchanged)
	}
}
