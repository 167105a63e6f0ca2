package memtune

import (
	"runtime/debug"
	"testing"
)

// settings reads GOGC and the memory limit without changing them.
func settings() (int, int64) {
	gc := debug.SetGCPercent(-1)
	debug.SetGCPercent(gc)
	return gc, debug.SetMemoryLimit(-1)
}

func TestOverlappingWorkRestoresTheProcessSettings(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(5 << 30))
	var tu Tuner
	check := func(step string, gc int, limit int64) {
		t.Helper()
		if g, l := settings(); g != gc || l != limit {
			t.Errorf("%s: GOGC %d, limit %d; want %d, %d", step, g, l, gc, limit)
		}
	}
	endA := tu.BulkLoad()
	check("one sync", bulkGCPercent, bulkMemoryLimit)
	endDecode := tu.Decode()
	check("a decode during the sync", -1, bulkMemoryLimit)
	endB := tu.BulkLoad()
	endDecode()
	check("two syncs", bulkGCPercent, bulkMemoryLimit)
	endA(0)
	check("the second sync alone", bulkGCPercent, bulkMemoryLimit)
	endB(0)
	check("nothing in flight", 77, 5<<30)
	endD := tu.Decode()
	check("a decode alone", -1, 5<<30)
	endD()
	check("nothing in flight again", 77, 5<<30)
}
