package main

import (
	"math"
	"strings"
	"testing"
)

// A dump in the shape `go tool trace -d=parsed` prints: goroutine 7 (a
// reader) runs alone from 100 to 200, goroutine 8 (a submitter) joins it
// until 300, then 8 runs alone until 400 inside the "sync: settle"
// region of goroutine 1; a GC worker running meanwhile is not counted.
const serialDump = `M=1 P=0 G=1 StateTransition Time=100 GoID=7 NotExist->Running Reason=""
TransitionStack=
	github.com/askls/askls/index.(*Index).readChanged.func1 @ 0x1
		/x/sync.go:1

M=1 P=0 G=1 StateTransition Time=100 GoID=9 NotExist->Running Reason=""
TransitionStack=
	runtime.gcBgMarkWorker @ 0x2
		/x/mgc.go:1

M=1 P=1 G=1 StateTransition Time=200 GoID=8 NotExist->Running Reason=""
TransitionStack=
	github.com/askls/askls/index.(*Index).submitResults.func1 @ 0x3
		/x/sync.go:2

M=1 P=1 G=8 StackSample Time=250
Stack=
	github.com/blevesearch/zapx/v16.(*interim).convert @ 0x4
		/x/new.go:1
	github.com/blevesearch/bleve/v2/index/scorch.(*Scorch).Batch @ 0x5
		/x/scorch.go:1

M=1 P=0 G=7 StateTransition Time=300 GoID=7 Running->Waiting Reason=""
M=1 P=0 G=1 RegionBegin Time=300 Task=0 Type="sync: settle"
M=1 P=1 G=8 StateTransition Time=400 GoID=8 Running->Waiting Reason=""
M=1 P=0 G=1 RegionEnd Time=400 Task=0 Type="sync: settle"
`

func TestSerialStatsCountsOneGoroutineAlone(t *testing.T) {
	st := newSerialStats()
	if err := st.read(strings.NewReader(serialDump)); err != nil {
		t.Fatal(err)
	}
	if st.byCount != [3]int64{0, 200, 100} {
		t.Errorf("wall by goroutines running = %v, want [0 200 100]", st.byCount)
	}
	if got := st.byStage["sync: settle"]; got == nil || got[1] != 100 {
		t.Errorf("settle stage = %v, want 100 alone", got)
	}
	if got := st.serialKind["before the sync | index.(*Index).readChanged.func1"]; got != 100 {
		t.Errorf("reader alone = %d, want 100 (%v)", got, st.serialKind)
	}
	if got := st.samples["segment build (bleve Batch)"]; got == nil || got[0] != 1 || got[1] != 0 {
		t.Errorf("samples = %v, want one segment build sample, not serial", got)
	}
}

// The serial share from a speedup: none when twice the cores halve the
// time, all when they change nothing, and Amdahl's law in between.
func TestSerialShare(t *testing.T) {
	for _, c := range []struct{ s, p, want float64 }{
		{2, 2, 0}, {1, 2, 1}, {1.6, 2, 0.25}, {2.5, 4, 0.2}, {3, 1, 0},
	} {
		if got := serialShare(c.s, c.p); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("serialShare(%v, %v) = %v, want %v", c.s, c.p, got, c.want)
		}
	}
	if _, err := parseCores("1,2,4"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "2,1", "0", "x"} {
		if _, err := parseCores(bad); err == nil {
			t.Errorf("parseCores(%q): no error", bad)
		}
	}
}
