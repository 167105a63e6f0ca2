package store

import (
	"hash/fnv"
	"strings"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/chunk"
	"github.com/blevesearch/bleve/v2/document"
	bindex "github.com/blevesearch/bleve_index_api"
)

// ChunkDoc builds the bleve document of chunk n of the file rel (a test
// file, or not: a unit of test code is marked a test too, UnitIsTest).
func ChunkDoc(rel, lang string, test bool, n int, c chunk.Chunk, text []byte) *document.Document {
	d := document.NewDocument(DocID(rel, n))
	body := text
	if c.Header != "" {
		body = make([]byte, 0, len(c.Header)+1+len(text))
		body = append(body, c.Header...)
		body = append(body, '\n')
		body = append(body, text...)
	}
	// No term vectors: they double the indexing cost; phrases are checked
	// on the text instead (see Search).
	d.AddField(newCodeField(FieldContent, body))
	if len(c.Names) > 0 {
		d.AddField(newCodeField(FieldSymbol, []byte(strings.Join(c.Names, " "))))
	}
	d.AddField(newCodeField(FieldPath, []byte(rel)))
	d.AddField(newKeywordField(FieldPathKW, []byte(rel)))
	d.AddField(newKeywordField(FieldLang, []byte(lang)))
	t := "0"
	if test || UnitIsTest(lang, c.Symbol, c.Kind, c.Parts) {
		t = "1"
	}
	d.AddField(newKeywordField(FieldTest, []byte(t)))
	return d
}

// AnalyseDocs counts the terms of every field of docs now (codeField's
// Analyze), on the caller's goroutine. A sync's read workers call it, one
// per core, so that bleve's Batch, which analyses each document on its
// own queue of four goroutines before it builds the batch's segment on
// the submitting one, finds them analysed (a second Analyze does
// nothing) and only builds the segment.
func AnalyseDocs(docs []*document.Document) {
	for _, d := range docs {
		d.VisitFields(func(f bindex.Field) { f.Analyze() })
	}
}

// DocHash is the hash of everything ChunkDoc indexes for chunk c of a
// file besides the path, language and test flag (the same for the path).
func DocHash(c chunk.Chunk, text []byte) uint64 {
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

// UnitIsTest reports whether a chunk of a file that is not a test holds
// test code only (corpus.TestUnit: Rust's in-file test module): a merged
// chunk when each of its units does.
func UnitIsTest(lang, symbol, kind string, parts []chunk.Part) bool {
	if len(parts) == 0 {
		return corpus.TestUnit(lang, symbol, kind)
	}
	for _, u := range parts {
		if !corpus.TestUnit(lang, u.Symbol, u.Kind) {
			return false
		}
	}
	return true
}
