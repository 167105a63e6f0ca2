package index

import (
	"hash/fnv"
	"strings"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/store"
	"github.com/blevesearch/bleve/v2/document"
	bindex "github.com/blevesearch/bleve_index_api"
)

// chunkDoc builds the bleve document of one chunk.
func chunkDoc(rel, lang string, test bool, n int, c chunk.Chunk, text []byte) *document.Document {
	d := document.NewDocument(store.DocID(rel, n))
	body := text
	if c.Header != "" {
		body = make([]byte, 0, len(c.Header)+1+len(text))
		body = append(body, c.Header...)
		body = append(body, '\n')
		body = append(body, text...)
	}
	// No term vectors: they double the indexing cost; phrases are checked
	// on the text instead (see Search).
	d.AddField(newCodeField(store.FieldContent, body))
	if len(c.Names) > 0 {
		d.AddField(newCodeField(store.FieldSymbol, []byte(strings.Join(c.Names, " "))))
	}
	d.AddField(newCodeField(store.FieldPath, []byte(rel)))
	d.AddField(newKeywordField(store.FieldPathKW, []byte(rel)))
	d.AddField(newKeywordField(store.FieldLang, []byte(lang)))
	t := "0"
	if test || unitIsTest(lang, c.Symbol, c.Parts) {
		t = "1"
	}
	d.AddField(newKeywordField(store.FieldTest, []byte(t)))
	return d
}

// analyseDocs counts the terms of every field of docs now (codeField's
// Analyze), on the caller's goroutine. A sync's read workers call it, one
// per core, so that bleve's Batch, which analyses each document on its
// own queue of four goroutines before it builds the batch's segment on
// the submitting one, finds them analysed (a second Analyze does
// nothing) and only builds the segment.
func analyseDocs(docs []*document.Document) {
	for _, d := range docs {
		d.VisitFields(func(f bindex.Field) { f.Analyze() })
	}
}

// docHash is the hash of everything chunkDoc indexes for chunk c of a
// file besides the path, language and test flag (the same for the path).
func docHash(c chunk.Chunk, text []byte) uint64 {
	h := fnv.New64a()
	h.Write([]byte(c.Header))
	h.Write([]byte{0})
	for _, n := range c.Names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	h.Write([]byte{1})
	h.Write(text)
	return h.Sum64()
}
