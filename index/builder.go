package index

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/util"
)

// coldBuilder writes a whole index offline with scorch's builder: small
// segments written to disk as they fill, merged into one at the end. A
// first index of a large tree is built this way, in a fraction of the
// memory that live batches need (their analysed documents pile up in
// memory while the persister and merger catch up).
type coldBuilder struct {
	dir string
	b   *scorch.Builder
}

// newColdBuilder replaces the (empty) bleve index at dir by a builder.
func newColdBuilder(dir string) (*coldBuilder, error) {
	os.RemoveAll(dir)
	// Create the index the ordinary way for its metadata, then build its
	// store offline.
	bi, err := openBleve(dir)
	if err != nil {
		return nil, err
	}
	mappingBytes, err := util.MarshalJSON(bi.Mapping())
	bi.Close()
	if err != nil {
		return nil, fmt.Errorf("index: mapping: %w", err)
	}
	store := filepath.Join(dir, "store")
	if err := os.RemoveAll(store); err != nil {
		return nil, err
	}
	b, err := scorch.NewBuilder(map[string]interface{}{
		"path":            store,
		"buildPathPrefix": dir,
		// Segments of 1,000 documents, merged in one round (GOROOT/src:
		// 72 segments): 12.4-13.3 s, 15.0-16.4 s CPU, 305-320 MB against
		// 14.0-14.9 s, 17.6-19.0 s, 289 MB for 250 merged 100 at a time
		// (go test -bench ColdSync, settings alternated). 2,000: no faster.
		// Before the windows of long groups kept only their own names,
		// larger segments ran out of the memory budget.
		"batchSize": 1000,
		"mergeMax":  1000,
		"internal":  map[string][]byte{string(util.MappingInternalKey): mappingBytes},
	})
	if err != nil {
		return nil, fmt.Errorf("index: builder: %w", err)
	}
	return &coldBuilder{dir: dir, b: b}, nil
}

// add analyses and writes one document (safe for concurrent use).
func (c *coldBuilder) add(d *document.Document) error { return c.b.Index(d) }

// finish merges the segments into the final index.
func (c *coldBuilder) finish() error {
	if err := c.b.Close(); err != nil {
		return fmt.Errorf("index: finishing the build: %w", err)
	}
	return nil
}
