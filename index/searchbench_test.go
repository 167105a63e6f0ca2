package index

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkSearch times each query of QueryMix at limit 10 on the Go
// standard library (the index is built on the first run, see
// benchOptions):
//
//	go test -run '^$' -bench Search -benchtime 200x ./index/
func BenchmarkSearch(b *testing.B) {
	snap := syncedBenchIndex(b, 0).Snapshot()
	for i, q := range QueryMix {
		b.Run(fmt.Sprintf("%02d", i), func(b *testing.B) {
			for b.Loop() {
				if _, err := snap.Search(context.Background(), q, 10, Filter{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
