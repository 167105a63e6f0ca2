package index

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"
)

// BenchmarkColdSync is a first Open + Sync of the Go standard library into
// an empty cache (the offline build), then Close (not timed). Profile it:
//
//	go test -run '^$' -bench ColdSync -benchtime 1x -cpuprofile cpu.out ./index/
//
// ASKLS_PEAK_HEAP=FILE also writes a heap profile once the heap passes
// 600 MB (ASKLS_PEAK_HEAP_MB=N: N MB).
func BenchmarkColdSync(b *testing.B) {
	opts := benchOptions(b)
	var total time.Duration
	if path := os.Getenv("ASKLS_PEAK_HEAP"); path != "" {
		// Write a heap profile once the heap passes 600 MB.
		go func() {
			var ms runtime.MemStats
			for {
				time.Sleep(100 * time.Millisecond)
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > peakHeapMB()<<20 {
					f, _ := os.Create(path)
					pprof.Lookup("heap").WriteTo(f, 0)
					f.Close()
					return
				}
			}
		}()
	}
	for b.Loop() {
		b.StopTimer()
		opts.CacheDir = b.TempDir()
		b.StartTimer()
		t0 := time.Now()
		ix, err := Open(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		st, err := ix.Sync(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(t0)
		b.StopTimer()
		b.ReportMetric(float64(st.Chunks), "chunks")
		ix.Close()
		b.StartTimer()
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "cold-s")
}

// peakHeapMB is the heap size at which BenchmarkColdSync writes its heap
// profile.
func peakHeapMB() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("ASKLS_PEAK_HEAP_MB"), 10, 64); err == nil {
		return n
	}
	return 600
}
