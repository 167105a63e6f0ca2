package workspace

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/fixture"
)

// joinCounter is a Text that counts how often it is joined.
type joinCounter struct {
	text  []byte
	joins *atomic.Int32
}

func (c joinCounter) Len() int { return len(c.text) }
func (c joinCounter) Bytes() []byte {
	c.joins.Add(1)
	return c.text
}

// TestTextOverTheLimitIsNeverJoined: a buffer over the index's size limit
// is handed over by its length alone, before and after the open, so a
// front end may keep it in pieces; once a new scope's limit holds it, the
// new index gets its bytes.
func TestTextOverTheLimitIsNeverJoined(t *testing.T) {
	root := fixture.Tree(t, shop)
	w := New(Options{Index: index.Options{CacheDir: t.TempDir(), Debounce: time.Millisecond}, Logger: quiet()})
	defer w.Close()
	price := filepath.Join(root, "shop", "price.go")
	var joins atomic.Int32
	big := "package shop\n\n// Surcharge is held once the limit allows.\n" + strings.Repeat("// filler\n", 300)
	w.SetBufferText(price, joinCounter{[]byte(big), &joins})
	ctx := context.Background()
	ix := startScope(t, w, Scope{Roots: []string{root}, MaxFileBytes: 1024})
	w.SetBufferText(price, joinCounter{[]byte(big), &joins})
	if err := ix.WaitFor(ctx, w.LastEdit()); err != nil {
		t.Fatal(err)
	}
	if n := joins.Load(); n != 0 {
		t.Errorf("a buffer over the limit was joined %d times", n)
	}
	if _, err := ix.Snapshot().Content("shop/price.go"); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("a buffer over the limit was read out: %v", err)
	}
	ix = startScope(t, w, Scope{Roots: []string{root}, MaxFileBytes: 1 << 20})
	if err := ix.WaitFor(ctx, w.LastEdit()); err != nil {
		t.Fatal(err)
	}
	if c, err := ix.Snapshot().Content("shop/price.go"); err != nil || string(c) != big {
		t.Errorf("the buffer under the new limit: %d bytes, %v", len(c), err)
	}
}

// startScope starts w on s and returns its index once synced.
func startScope(t *testing.T, w *Workspace, s Scope) *index.Index {
	t.Helper()
	w.Start(s)
	ctx := context.Background()
	if err := w.Synced(ctx); err != nil {
		t.Fatal(err)
	}
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}
