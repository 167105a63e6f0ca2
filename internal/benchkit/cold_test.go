package benchkit

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/askls/askls/index"
)

// BenchmarkColdTunedBleve is a reference point for the index's
// BenchmarkColdSync, not part of askls: the fastest plain bleve load, on the
// files askls indexes (tests included), measured on this machine. 60-line
// chunks, one text field (standard analyzer, not stored, no term vectors,
// not in _all), a static mapping, documents built without reflection, two
// goroutines each submitting its own 1,000-document batches, unsafe_batch
// (waiting on each batch's persisted callback before Close), GOGC 200.
// Nothing of askls' own work: no code tokenizer, no symbol or path field,
// no go/parser chunks, no hashes, no manifest.
//
//	go test -run '^$' -bench Cold -benchtime 1x -count 3 ./internal/benchkit/
func BenchmarkColdTunedBleve(b *testing.B) {
	coldBench(b, func(root, dir string) int {
		return tunedBleveLoad(b, root, filepath.Join(dir, "tuned.bleve"))
	})
}

// BenchmarkColdBleveDefault is the baseline of askls-bench bench
// --baseline (bleve's default mapping, one goroutine, 1,000-document
// batches, the files askls indexes) as a benchmark.
func BenchmarkColdBleveDefault(b *testing.B) {
	coldBench(b, func(root, dir string) int {
		bl, st, err := BuildBaseline(context.Background(), root, dir, BaselineOptions{Tests: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { bl.Close() }) // not timed, as in askls-bench bench
		return st.Chunks
	})
}

// coldBench times build (root, an empty folder) -> chunks written, once
// per iteration, and reports the mean seconds as cold-s.
func coldBench(b *testing.B, build func(root, dir string) int) {
	root := benchRoot(b)
	var total time.Duration
	for b.Loop() {
		dir := b.TempDir()
		t0 := time.Now()
		chunks := build(root, dir)
		total += time.Since(t0)
		b.ReportMetric(float64(chunks), "chunks")
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "cold-s")
}

// tunedBleveLoad builds the tuned plain index of rootDir at path and
// returns its document count.
func tunedBleveLoad(b *testing.B, rootDir, path string) int {
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	abs, err := filepath.Abs(rootDir)
	if err != nil {
		b.Fatal(err)
	}
	walked, err := index.ListFiles(context.Background(), abs, 0)
	if err != nil {
		b.Fatal(err)
	}
	f := bleve.NewTextFieldMapping()
	f.Analyzer = standard.Name
	f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, false, false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("content", f)
	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	bi, err := bleve.NewUsing(path, im, scorch.Name, scorch.Name, map[string]interface{}{"unsafe_batch": true})
	if err != nil {
		b.Fatal(err)
	}
	var persisted sync.WaitGroup
	files := make(chan string)
	var mu sync.Mutex
	count := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			batch := bi.NewBatch()
			submit := func() {
				persisted.Add(1)
				batch.SetPersistedCallback(func(error) { persisted.Done() })
				if err := bi.Batch(batch); err != nil {
					b.Error(err)
					persisted.Done()
				}
				batch = bi.NewBatch()
			}
			for fe := range files {
				data, err := os.ReadFile(filepath.Join(abs, filepath.FromSlash(fe)))
				if err != nil || isBinary(data) {
					continue
				}
				lines := strings.SplitAfter(string(data), "\n")
				for s := 0; s < len(lines); s += 60 {
					e := min(s+60, len(lines))
					d := document.NewDocument(fe + "#" + strconv.Itoa(s))
					d.AddField(document.NewTextFieldCustom("content", nil, []byte(strings.Join(lines[s:e], "")),
						bindex.IndexField, im.AnalyzerNamed(standard.Name)))
					if err := batch.IndexAdvanced(d); err != nil {
						b.Error(err)
					}
					mu.Lock()
					count++
					mu.Unlock()
					if batch.Size() >= 1000 {
						submit()
					}
				}
			}
			if batch.Size() > 0 {
				submit()
			}
		}()
	}
	for _, fe := range walked {
		files <- fe
	}
	close(files)
	wg.Wait()
	persisted.Wait()
	if err := bi.Close(); err != nil {
		b.Fatal(err)
	}
	return count
}
