package store

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/askls/askls/index/chunk"
)

// TestMappedSymbolTableCutShortIsNoCrash: a table file mapped by a read,
// then cut short in place by another program (askls renames a new file
// over it instead), makes the reads of its pages fault; the checks of a
// read and the lookups turn that into an error or no answer, never a
// crash. (On Linux, where a mapped page past a file's end raises SIGBUS.)
func TestMappedSymbolTableCutShortIsNoCrash(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the faults of a mapping past a file's end are Linux's here")
	}
	dir := t.TempDir()
	files, _ := keptFixture(t, dir)
	path := filepath.Join(dir, SymtabFile)

	// A read whose file is cut short between the mapping and the checks.
	data, mapped, _, err := mapFile(path, nil)
	if err != nil || !mapped {
		t.Fatalf("mapFile: mapped %v, %v", mapped, err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	b := &symBase{files: files, root: SymRoot{Dir: dir}, sh: &symShared{}}
	if err := faultsAsErrors(data, func() error { return b.decode(data) }); err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Errorf("decoding a mapping cut short: %v, want an error saying the file changed", err)
	}
	unmapFile(data)

	// A table read whole, then its file cut short under its lookups.
	_, kept := keptFixture(t, dir)
	var log bytes.Buffer
	tab := NextSymbolTable(NewStoredSymbolTable(nil, slog.New(slog.NewTextHandler(&log, nil)), []SymRoot{{Dir: dir}}), files, nil)
	if got := tab.Lookup("Cart", 5, files); len(got) == 0 || tab.Reads() != 1 || !tab.bases[0].mapped {
		t.Fatalf("Lookup(Cart) before the damage = %+v (%d read, mapped %v)", got, tab.Reads(), tab.bases[0].mapped)
	}
	tab.sh.closed = true // no table file written again
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"Cart", "t", "Total"} {
		if got := tab.Lookup(q, 5, files); got != nil {
			t.Errorf("Lookup(%q) on a file cut short = %+v, want nothing", q, got)
		}
		if got := tab.Named(q, files); got != nil {
			t.Errorf("Named(%q) on a file cut short = %+v, want nothing", q, got)
		}
	}
	if !strings.Contains(log.String(), "changed under askls") {
		t.Errorf("no warning logged:\n%s", log.String())
	}
	// A file of the same length again: the mapping reads it.
	if err := os.WriteFile(path, kept, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := tab.Lookup("Cart", 5, files); len(got) == 0 {
		t.Error("Lookup(Cart) found nothing once the file was whole again")
	}
}

// TestNilDerefInLookupIsNotAFault: a fault in a lookup outside a mapped
// table file (a bug) still panics.
func TestNilDerefInLookupIsNotAFault(t *testing.T) {
	dir := t.TempDir()
	files, _ := keptFixture(t, dir)
	tab := NextSymbolTable(NewStoredSymbolTable(nil, nil, []SymRoot{{Dir: dir}}), files, nil)
	tab.Build()
	var e *Entry
	defer func() {
		if recover() == nil {
			t.Error("a nil dereference in a lookup did not panic")
		}
	}()
	func() (out []chunk.Symbol) {
		defer tab.endLookup(&out, debug.SetPanicOnFault(true))
		return make([]chunk.Symbol, e.Size)
	}()
}
