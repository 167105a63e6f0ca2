package index

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/askls/askls/index/chunk"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Fields of a chunk document. Nothing is stored: lines and symbols live in
// memory, text is read from the file.
const (
	fieldContent = "content" // the chunk's text (+ header), code analyzer, term vectors for phrases
	fieldSymbol  = "symbol"  // names the chunk defines, code analyzer
	fieldPath    = "path"    // the path, code analyzer (segments, base name)
	fieldPathKW  = "pathkw"  // the path, one term: deletes and path filters
	fieldLang    = "lang"    // language, one term
	fieldTest    = "test"    // "1" for test files
)

// scoringModel is bleve's scoring, tf-idf: on testdata/eval/goroot.jsonl
// it ranked the expected files at least as well as BM25. docs/ranking.md
// says how search ranks on top of it.
const scoringModel = bindex.TFIDFScoring

// newMapping is the static mapping the fields above follow. Documents are
// added with IndexAdvanced (no reflection); the mapping records the
// analyzers for anyone opening the index, and sets scoringModel.
func newMapping() mapping.IndexMapping {
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
	dm.AddFieldMappingsAt(fieldContent, text(true))
	dm.AddFieldMappingsAt(fieldSymbol, text(false))
	dm.AddFieldMappingsAt(fieldPath, text(false))
	dm.AddFieldMappingsAt(fieldPathKW, kw())
	dm.AddFieldMappingsAt(fieldLang, kw())
	dm.AddFieldMappingsAt(fieldTest, kw())
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

// openBleve opens the index in dir, creating it when absent.
func openBleve(dir string) (bleve.Index, error) {
	if _, err := os.Stat(dir); err == nil {
		bi, err := bleve.OpenUsing(dir, runtimeConfig())
		if err != nil {
			return nil, fmt.Errorf("open bleve index %s: %w", dir, err)
		}
		return bi, nil
	}
	bi, err := bleve.NewUsing(dir, newMapping(), scorch.Name, scorch.Name, runtimeConfig())
	if err != nil {
		return nil, fmt.Errorf("create bleve index %s: %w", dir, err)
	}
	return bi, nil
}

// docID names chunk n of a file.
func docID(rel string, n int) string { return rel + "#" + strconv.Itoa(n) }

// parseDocID splits a document ID into path and chunk number.
func parseDocID(id string) (string, int, bool) {
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

// chunkDoc builds the bleve document of one chunk.
func chunkDoc(rel, lang string, test bool, n int, c chunk.Chunk, text []byte) *document.Document {
	d := document.NewDocument(docID(rel, n))
	body := text
	if c.Header != "" {
		body = make([]byte, 0, len(c.Header)+1+len(text))
		body = append(body, c.Header...)
		body = append(body, '\n')
		body = append(body, text...)
	}
	// No term vectors: they double the indexing cost; phrases are checked
	// on the text instead (see Search).
	d.AddField(newCodeField(fieldContent, body))
	if len(c.Names) > 0 {
		d.AddField(newCodeField(fieldSymbol, []byte(strings.Join(c.Names, " "))))
	}
	d.AddField(newCodeField(fieldPath, []byte(rel)))
	d.AddField(newKeywordField(fieldPathKW, []byte(rel)))
	d.AddField(newKeywordField(fieldLang, []byte(lang)))
	t := "0"
	if test {
		t = "1"
	}
	d.AddField(newKeywordField(fieldTest, []byte(t)))
	return d
}

// settle runs the merges of the settle plan below for bi now, and waits
// for them, so that a first build ends with its small segments merged
// instead of merging them later beside the first edits and searches. The
// in-memory index Open falls back to is not scorch (bleve makes it with
// upsidedown): nothing to merge. A scorch index without a path would have no merger, and
// ForceMerge would wait for it for ever.
func settle(ctx context.Context, bi bleve.Index) error {
	ai, err := bi.Advanced()
	if err != nil {
		return err
	}
	sc, ok := ai.(*scorch.Scorch)
	if !ok {
		return nil // not scorch: nothing to merge
	}
	policy := mergeplan.DefaultMergePlanOptions
	policy.MaxSegmentsPerTier = settleSegmentsPerTier
	policy.MaxSegmentSize = settleMaxSegmentDocs
	return sc.ForceMerge(ctx, &policy)
}

// settleSegmentsPerTier is how many segments of one size a settled index
// keeps (scorch's steady policy allows 10), and settleMaxSegmentDocs
// bounds the segments its merges make: only segments of fewer than half
// that many documents are merged, so that a first build's settle merges
// the small segments its last batches leave and never rewrites the large
// ones, whatever the tree's size (docs/kernel.md, "Segments after a
// build").
const (
	settleSegmentsPerTier = 4
	settleMaxSegmentDocs  = 100000
)

// maxUnpersisted bounds the batches bleve holds in memory before they are
// on disk: a bulk load waits for the persister instead of growing the heap.
const maxUnpersisted = 4

// persistWait counts batches applied but not yet persisted (unsafe_batch):
// Close and manifest saves wait on it, or the last segment would be lost.
type persistWait struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
	once sync.Once
	sem  chan struct{}
}

// run executes b on bi and tracks its persistence.
func (p *persistWait) run(bi bleve.Index, b *bleve.Batch) error {
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
func (p *persistWait) wait() error {
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	err := p.err
	p.err = nil
	return err
}
