package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Fields of a chunk document. Nothing is stored: lines and symbols live in
// memory, text is read from the file.
const (
	FieldContent = "content" // the chunk's text (+ header), code analyzer, term vectors for phrases
	FieldSymbol  = "symbol"  // names the chunk defines, code analyzer
	FieldPath    = "path"    // the path, code analyzer (segments, base name)
	FieldPathKW  = "pathkw"  // the path, one term: deletes and path filters
	FieldLang    = "lang"    // language, one term
	FieldTest    = "test"    // "1" for test files
)

// scoringModel is bleve's scoring, tf-idf: on testdata/eval/goroot.jsonl
// it ranked the expected files at least as well as BM25. docs/ranking.md
// says how search ranks on top of it.
const scoringModel = bindex.TFIDFScoring

// NewMapping is the static mapping the fields above follow. Documents are
// added with IndexAdvanced (no reflection); the mapping records the
// analyzers for anyone opening the index, and sets scoringModel.
func NewMapping() mapping.IndexMapping {
	text := func(vectors bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = codeAnalyzerName
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = vectors
		f.DocValues = false
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Store = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(FieldContent, text(true))
	dm.AddFieldMappingsAt(FieldSymbol, text(false))
	dm.AddFieldMappingsAt(FieldPath, text(false))
	dm.AddFieldMappingsAt(FieldPathKW, kw())
	dm.AddFieldMappingsAt(FieldLang, kw())
	dm.AddFieldMappingsAt(FieldTest, kw())
	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.DefaultAnalyzer = codeAnalyzerName
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	im.ScoringModel = scoringModel
	return im
}

// runtimeConfig is bleve's runtime configuration of an index, a new map
// for each: bleve writes into the map it is given, so a shared one made
// two indexes opened at once (two roots in two servers of one process,
// parallel tests) a concurrent map write.
func runtimeConfig() map[string]interface{} { return map[string]interface{}{"unsafe_batch": true} }

// Open opens the index in dir, creating it when absent.
func Open(dir string) (bleve.Index, error) {
	if _, err := os.Stat(dir); err == nil {
		bi, err := bleve.OpenUsing(dir, runtimeConfig())
		if err != nil {
			return nil, fmt.Errorf("open bleve index %s: %w", dir, err)
		}
		return bi, nil
	}
	bi, err := bleve.NewUsing(dir, NewMapping(), scorch.Name, scorch.Name, runtimeConfig())
	if err != nil {
		return nil, fmt.Errorf("create bleve index %s: %w", dir, err)
	}
	return bi, nil
}

// DocID names chunk n of a file.
func DocID(rel string, n int) string { return rel + "#" + strconv.Itoa(n) }

// ParseDocID splits a document ID into path and chunk number.
func ParseDocID(id string) (string, int, bool) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return "", 0, false
	}
	return id[:i], n, true
}

// maxUnpersisted bounds the batches bleve holds in memory before they are
// on disk: a bulk load waits for the persister instead of growing the heap.
const maxUnpersisted = 4

// Persister counts batches applied but not yet persisted (unsafe_batch):
// Close and manifest saves wait on it, or the last segment would be lost.
type Persister struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
	once sync.Once
	sem  chan struct{}
}

// run executes b on bi and tracks its persistence.
func (p *Persister) Run(bi bleve.Index, b *bleve.Batch) error {
	p.once.Do(func() { p.sem = make(chan struct{}, maxUnpersisted) })
	p.sem <- struct{}{}
	p.wg.Add(1)
	var once sync.Once
	done := func() { once.Do(func() { <-p.sem; p.wg.Done() }) }
	b.SetPersistedCallback(func(err error) {
		if err != nil {
			p.mu.Lock()
			p.err = err
			p.mu.Unlock()
		}
		done()
	})
	if err := bi.Batch(b); err != nil {
		// The callback may never come for a batch that failed.
		done()
		return err
	}
	return nil
}

// wait blocks until every batch run so far is on disk.
func (p *Persister) Wait() error {
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	err := p.err
	p.err = nil
	return err
}
