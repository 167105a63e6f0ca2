package benchkit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"github.com/askls/askls/index"
)

// Baseline is the plain bleve index askls is measured against: 60-line
// chunks of the same files, bleve's default mapping, one goroutine
// submitting batches, and a match query on the question. askls-bench bench
// --baseline indexes every file askls indexes; askls-bench eval --baseline
// leaves test files out, as the question set defines.
type Baseline struct {
	bi  bleve.Index
	dir string
}

// BaselineStats say what building the baseline took.
type BaselineStats struct {
	Files, Chunks int
}

type baselineDoc struct {
	Path    string `json:"path"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Content string `json:"content"`
}

// BaselineOptions choose the files of a baseline.
type BaselineOptions struct {
	MaxFileBytes int64 // the size limit askls uses (0: its default)
	Tests        bool  // also index test files and testdata, as askls does
	// BM25 scores with bleve's BM25 (k1 1.2, b 0.75) instead of its
	// default tf-idf: the plain-BM25 line of the broad benchmark.
	BM25 bool
}

// isBinary is the index's content test: a NUL byte in the first 8 KiB.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0
}

// BuildBaseline indexes the files of root under dir (created; removed by
// Close) the plain way.
func BuildBaseline(ctx context.Context, rootDir, dir string, opts BaselineOptions) (*Baseline, BaselineStats, error) {
	var stats BaselineStats
	abs, err := filepath.Abs(rootDir)
	if err != nil {
		return nil, stats, fmt.Errorf("baseline: %w", err)
	}
	files, err := index.ListFiles(ctx, abs, opts.MaxFileBytes)
	if err != nil {
		return nil, stats, fmt.Errorf("baseline: %w", err)
	}
	m := bleve.NewIndexMapping()
	if opts.BM25 {
		m.ScoringModel = "bm25"
	}
	bi, err := bleve.New(filepath.Join(dir, "baseline.bleve"), m)
	if err != nil {
		return nil, stats, fmt.Errorf("baseline: %w", err)
	}
	b := bi.NewBatch()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			bi.Close()
			return nil, stats, err
		}
		if !opts.Tests && index.IsTest(f) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(abs, filepath.FromSlash(f)))
		if err != nil || isBinary(data) {
			continue
		}
		stats.Files++
		lines := strings.SplitAfter(string(data), "\n")
		for s := 0; s < len(lines); s += 60 {
			e := min(s+60, len(lines))
			doc := baselineDoc{Path: f, Start: s + 1, End: e, Content: strings.Join(lines[s:e], "")}
			if err := b.Index(f+"#"+strconv.Itoa(s), doc); err != nil {
				bi.Close()
				return nil, stats, err
			}
			stats.Chunks++
			if b.Size() >= 1000 {
				if err := bi.Batch(b); err != nil {
					bi.Close()
					return nil, stats, err
				}
				b = bi.NewBatch()
			}
		}
	}
	if b.Size() > 0 {
		if err := bi.Batch(b); err != nil {
			bi.Close()
			return nil, stats, err
		}
	}
	return &Baseline{bi: bi, dir: dir}, stats, nil
}

// Search runs a match query for q and returns the chunks, best first.
func (b *Baseline) Search(ctx context.Context, q string, limit int) ([]index.Hit, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewMatchQuery(q), limit, 0, false)
	req.Fields = []string{"path", "start", "end"}
	res, err := b.bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	var hits []index.Hit
	for _, h := range res.Hits {
		p, _ := h.Fields["path"].(string)
		s, _ := h.Fields["start"].(float64)
		e, _ := h.Fields["end"].(float64)
		hits = append(hits, index.Hit{Path: p, Start: int(s), End: int(e), Score: h.Score})
	}
	return hits, nil
}

// Close closes and deletes the baseline index.
func (b *Baseline) Close() error {
	err := b.bi.Close()
	os.RemoveAll(filepath.Join(b.dir, "baseline.bleve"))
	return err
}

// Update re-indexes one file's 60-line chunks in one batch, the plain way.
func (b *Baseline) Update(rel string, content []byte) error {
	batch := b.bi.NewBatch()
	lines := strings.SplitAfter(string(content), "\n")
	for s := 0; s < len(lines); s += 60 {
		e := min(s+60, len(lines))
		doc := baselineDoc{Path: rel, Start: s + 1, End: e, Content: strings.Join(lines[s:e], "")}
		if err := batch.Index(rel+"#"+strconv.Itoa(s), doc); err != nil {
			return err
		}
	}
	return b.bi.Batch(batch)
}
