package store

import (
	"sync"

	"github.com/askls/askls/words"
	"github.com/blevesearch/bleve/v2/document"
	bindex "github.com/blevesearch/bleve_index_api"
)

// codeField is an indexed, unstored text field of a chunk document. It
// counts its terms straight from words.Scan into the term frequencies the
// segment builder reads: no token per occurrence, one map sized to the
// distinct terms, one slab of counts. bleve's TextField would build a
// token stream and then a map sized to the token count. The terms are
// those of the code analyzer (keyword: the whole value as one term), so
// queries analysed by the mapping match them.
//
// Analyze runs once (a second call does nothing).
type codeField struct {
	name    string
	value   []byte
	keyword bool

	analysed bool
	length   int
	freqs    bindex.TokenFrequencies
}

func newCodeField(name string, value []byte) *codeField {
	return &codeField{name: name, value: value}
}

func newKeywordField(name string, value []byte) *codeField {
	return &codeField{name: name, value: value, keyword: true}
}

func (f *codeField) Name() string                                      { return f.name }
func (f *codeField) ArrayPositions() []uint64                          { return nil }
func (f *codeField) Options() bindex.FieldIndexingOptions              { return bindex.IndexField }
func (f *codeField) Value() []byte                                     { return f.value }
func (f *codeField) NumPlainTextBytes() uint64                         { return uint64(len(f.value)) }
func (f *codeField) EncodedFieldType() byte                            { return 't' }
func (f *codeField) AnalyzedLength() int                               { return f.length }
func (f *codeField) AnalyzedTokenFrequencies() bindex.TokenFrequencies { return f.freqs }

// Size is what the field holds in memory, roughly (bleve's batch
// accounting).
func (f *codeField) Size() int {
	return 64 + len(f.name) + len(f.value) + len(f.freqs)*64
}

// Analyze computes the field's term frequencies, once.
func (f *codeField) Analyze() {
	if f.analysed {
		return
	}
	f.analysed = true
	if f.keyword {
		f.length = 1
		tf := &bindex.TokenFreq{Term: f.value}
		tf.SetFrequency(1)
		f.freqs = bindex.TokenFrequencies{string(f.value): tf}
		return
	}
	c := counters.Get().(*termCounter)
	words.Scan(f.value, func(_, _ int, term []byte) { c.add(term) })
	f.length = c.total
	f.freqs = c.frequencies()
	c.reset()
	counters.Put(c)
}

var _ document.Field = (*codeField)(nil)

// termCounter counts the distinct terms of one field; reused through
// counters.
type termCounter struct {
	index map[string]int32 // term → position in terms
	terms []termCount
	total int
}

type termCount struct {
	key  string
	term []byte
	n    int
}

var counters = sync.Pool{New: func() any { return &termCounter{index: map[string]int32{}} }}

func (c *termCounter) add(term []byte) {
	c.total++
	if i, ok := c.index[string(term)]; ok {
		c.terms[i].n++
		return
	}
	key := string(term)
	c.index[key] = int32(len(c.terms))
	c.terms = append(c.terms, termCount{key: key, term: term, n: 1})
}

// frequencies returns the counted terms, stemmed (see stem), the way the
// segment builder takes them. Stemming each distinct term once, not each
// occurrence, is most of what counting first saves.
func (c *termCounter) frequencies() bindex.TokenFrequencies {
	tfs := make(bindex.TokenFrequencies, len(c.terms))
	slab := make([]bindex.TokenFreq, len(c.terms))
	for i, t := range c.terms {
		key, term := t.key, t.term
		if st := words.Stem(term); string(st) != key {
			key, term = string(st), st
		}
		if tf := tfs[key]; tf != nil {
			// "compares" and "compared" (or "compar"): one term, compar.
			tf.SetFrequency(tf.Frequency() + t.n)
			continue
		}
		tf := &slab[i]
		tf.Term = term
		tf.SetFrequency(t.n)
		tfs[key] = tf
	}
	return tfs
}

// maxPooledTerms: a counter that grew past this many distinct terms (a
// huge field) is not kept, since clearing its map costs by its size.
const maxPooledTerms = 1 << 13

func (c *termCounter) reset() {
	if len(c.terms) > maxPooledTerms {
		c.index = map[string]int32{}
		c.terms = nil
		c.total = 0
		return
	}
	clear(c.index)
	clear(c.terms) // drop references into the text
	c.terms = c.terms[:0]
	c.total = 0
}
