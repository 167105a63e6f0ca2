package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
)

// Baseline is the plain bleve index askls is measured against: 60-line
// chunks of the same files, bleve's default mapping, one goroutine
// submitting batches, and a match query on the question. It exists for
// `askls bench --baseline` (every file askls indexes) and `askls eval
// --baseline` (test files left out, as the question set defines).
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
}

// walkPlain lists the files askls would index under rootDir (ignore rules,
// size limit, binaries by name), for the plain-bleve baselines, and
// returns rootDir made absolute.
func walkPlain(ctx context.Context, rootDir string, maxFileBytes int64) (string, []walkEntry, error) {
	abs, err := filepath.Abs(rootDir)
	if err != nil {
		return "", nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, fmt.Errorf("baseline: root %s: %w", rootDir, err)
	}
	r := &root{abs: abs, real: real, ign: newIgnorer(abs, nil)}
	w := &walker{root: r, maxBytes: maxFileBytes, skipped: map[string]int{}}
	if err := w.walk(ctx); err != nil {
		return "", nil, err
	}
	return abs, w.files, nil
}

// BuildBaseline indexes the files of root under dir (created; removed by
// Close) the plain way.
func BuildBaseline(ctx context.Context, rootDir, dir string, opts BaselineOptions) (*Baseline, BaselineStats, error) {
	var stats BaselineStats
	maxFileBytes := opts.MaxFileBytes
	if maxFileBytes <= 0 {
		maxFileBytes = defaultMaxFileBytes
	}
	abs, files, err := walkPlain(ctx, rootDir, maxFileBytes)
	if err != nil {
		return nil, stats, err
	}
	bi, err := bleve.New(filepath.Join(dir, "baseline.bleve"), bleve.NewIndexMapping())
	if err != nil {
		return nil, stats, fmt.Errorf("baseline: %w", err)
	}
	b := bi.NewBatch()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			bi.Close()
			return nil, stats, err
		}
		if !opts.Tests && isTestPath(f.rel) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(abs, filepath.FromSlash(f.rel)))
		if err != nil || isBinary(data) {
			continue
		}
		stats.Files++
		lines := strings.SplitAfter(string(data), "\n")
		for s := 0; s < len(lines); s += 60 {
			e := min(s+60, len(lines))
			doc := baselineDoc{Path: f.rel, Start: s + 1, End: e, Content: strings.Join(lines[s:e], "")}
			if err := b.Index(f.rel+"#"+strconv.Itoa(s), doc); err != nil {
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
func (b *Baseline) Search(ctx context.Context, q string, limit int) ([]Hit, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewMatchQuery(q), limit, 0, false)
	req.Fields = []string{"path", "start", "end"}
	res, err := b.bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	for _, h := range res.Hits {
		p, _ := h.Fields["path"].(string)
		s, _ := h.Fields["start"].(float64)
		e, _ := h.Fields["end"].(float64)
		hits = append(hits, Hit{Path: p, Start: int(s), End: int(e), Score: h.Score})
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
