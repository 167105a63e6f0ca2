// Package memtune is the askls commands' policy for the Go runtime's
// collector while an index does bulk work: it implements
// index.RuntimeTuner. The index package never changes process-wide
// settings itself; a command that owns its process passes Process in
// index.Options.Runtime (askls, askls-bench and the index benchmarks do).
//
// Process is safe for concurrent use: several indexes may sync and decode
// manifests at once. The settings it applies follow the work in flight
// (reference counts under one mutex), and the settings the process had
// before are restored when the last piece of work ends.
package memtune

import (
	"runtime/debug"
	"sync"
)

const (
	// bulkGCPercent and bulkMemoryLimit hold during a Sync: a bulk load
	// makes much short-lived garbage, so collect less often than GOGC 100
	// but keep the heap under a soft limit (a first build of GOROOT/src
	// peaks near 490 MB and stays far under it; larger trees make the
	// collector work harder near the limit rather than grow past it).
	// The limit is set where a build of the Linux tree spends little of
	// its time collecting: 640 MB had the collector take a third of its
	// CPU; 1 GiB a tenth, at 1.24 GB peak RSS.
	bulkGCPercent   = 120
	bulkMemoryLimit = 1 << 30
	// freeAfter: a Sync that indexed more files than this gives its memory
	// back to the system at its end (a warm start does not: forcing a
	// collection and scavenge of the loaded manifest costs more than it
	// returns).
	freeAfter = 1000
	// freeSymbolsAfter: after building a symbol table of more symbols
	// than this, the memory its build used is given back (the Linux tree,
	// 2.9 million symbols: the build peaks near 1.3 GB for a table and an
	// index that keep 500 MB; GOROOT's 228,000 are left to the runtime).
	freeSymbolsAfter = 1_000_000
)

// Process is the tuner of this process.
var Process = &Tuner{}

// Tuner sets the collector from the bulk work in flight. The zero value is
// ready to use.
type Tuner struct {
	mu     sync.Mutex
	bulk   int   // Syncs in flight
	decode int   // manifest decodes in flight
	saved  bool  // gc and limit hold the settings from before the work
	gc     int   // GOGC before the work
	limit  int64 // memory limit before the work
}

// BulkLoad is called as a Sync starts; the function it returns is called
// as it ends with the number of files the Sync indexed.
func (t *Tuner) BulkLoad() func(indexed int) {
	t.change(func() { t.bulk++ })
	return func(indexed int) {
		t.change(func() { t.bulk-- })
		if indexed > freeAfter {
			debug.FreeOSMemory()
		}
	}
}

// SymbolTableBuilt gives a large symbol table's build memory back to the
// system: the build's maps and decoded symbols are garbage once it ends,
// and an idle server would otherwise hold their pages.
func (t *Tuner) SymbolTableBuilt(n int) {
	if n > freeSymbolsAfter {
		debug.FreeOSMemory()
	}
}

// Decode is called around the decoding of a manifest, which allocates the
// whole table at once: collecting in the middle of it only slows it down,
// so the collector is off until the last decode in flight ends (the
// memory limit, where a Sync set one, still holds).
func (t *Tuner) Decode() func() {
	t.change(func() { t.decode++ })
	return func() { t.change(func() { t.decode-- }) }
}

// change applies f to the counts and sets the runtime to match them: the
// collector off while a manifest decodes, else GOGC bulkGCPercent while a
// Sync runs; the memory limit while a Sync runs; the process's own
// settings when nothing is in flight.
func (t *Tuner) change(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f()
	if t.bulk == 0 && t.decode == 0 {
		if t.saved {
			debug.SetGCPercent(t.gc)
			debug.SetMemoryLimit(t.limit)
			t.saved = false
		}
		return
	}
	gc := bulkGCPercent
	if t.decode > 0 {
		gc = -1
	}
	prev := debug.SetGCPercent(gc)
	if !t.saved {
		t.gc, t.limit, t.saved = prev, debug.SetMemoryLimit(-1), true
	}
	if t.bulk > 0 {
		debug.SetMemoryLimit(bulkMemoryLimit)
	} else {
		debug.SetMemoryLimit(t.limit)
	}
}
