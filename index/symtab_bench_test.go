package index

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkFirstLookup opens the benchmarks' index (warm: a first run
// builds it), syncs, and times the process's first Symbols call, with
// the heap and the resident memory before and after it. One lookup per
// process: run it with -benchtime 1x.
//
//	go test -run '^$' -bench FirstLookup -benchtime 1x ./index/
func BenchmarkFirstLookup(b *testing.B) {
	opts := benchOptions(b)
	opts.SymbolsOnDemand = true // the lookup does what the table needs, not a background build
	ix, err := Open(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	debug.FreeOSMemory()
	heap0, rss0 := heapMB(), procStatusMB("VmRSS")
	// Reset the peak resident figure (VmHWM) to the current one.
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	t0 := time.Now()
	syms := ix.Snapshot().Symbols("Reader", 50)
	took := time.Since(t0)
	heap1, rss1, peak := heapMB(), procStatusMB("VmRSS"), procStatusMB("VmHWM")
	runtime.GC()
	live := heapMB()
	if len(syms) == 0 {
		b.Fatal("Symbols(Reader) found nothing")
	}
	b.ReportMetric(float64(took.Microseconds())/1000, "first-ms")
	b.ReportMetric(heap0, "heap-before-MB")
	b.ReportMetric(heap1, "heap-after-MB")
	b.ReportMetric(live, "live-after-MB")
	b.ReportMetric(rss0, "rss-before-MB")
	b.ReportMetric(rss1, "rss-after-MB")
	b.ReportMetric(peak, "rss-peak-MB")
	t1 := time.Now()
	ix.Snapshot().Symbols("Writer", 50)
	b.ReportMetric(float64(time.Since(t1).Microseconds())/1000, "second-ms")
}

// heapMB is the Go heap in use (HeapAlloc), in MB.
func heapMB() float64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// procStatusMB is a "kB" line of /proc/self/status in MB, or 0.
func procStatusMB(key string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
