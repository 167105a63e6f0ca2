package rank

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/askls/askls/index/chunk"
)

// directions are pairs of opposite directions of one operation: the two
// sides share their vocabulary (a reader and a writer of one format name
// the same types, fields and options), so a question about one side
// finds the other's code as readily as its own. Each side is a list of
// words, analysed as the fields are (Terms) when first used.
var directions = [][2]string{
	{"read reader reads reading", "write writer writes writing written"},
	{"decode decoder decodes decoding decoded unmarshal unmarshaler deserialize deserializer", "encode encoder encodes encoding encoded marshal marshaler serialize serializer"},
	{"decompress decompressor decompression decompressed inflate inflater", "compress compressor compression compressed deflate deflater"},
	{"load loader loads loading", "dump dumper dumps dumping"},
	{"receive receiver receives recv", "send sender sends"},
	{"decrypt decrypts", "encrypt encrypts"},
	{"download downloads", "upload uploads"},
	{"import importer imports", "export exporter exports"},
}

// roles are pairs of the two ends of one exchange, the client and the
// server: like directions, but no in or out, so a question that names
// data going in and out still takes a side here.
var roles = [][2]string{
	{"client clients", "server servers"},
}

// directionWords are directions read two ways: per pair, each side's
// terms as the question's are analysed (Terms), and each side's words as
// they are written in names.
type directionWords struct {
	terms [2][]string
	names [2][]string
}

var directionTerms = sync.OnceValue(func() []directionWords { return analyseDirections(directions) })

var roleTerms = sync.OnceValue(func() []directionWords { return analyseDirections(roles) })

// analyseDirections reads pairs two ways (directionWords).
func analyseDirections(pairs [][2]string) []directionWords {
	out := make([]directionWords, len(pairs))
	for i, d := range pairs {
		for s := range 2 {
			out[i].terms[s] = Terms(d[s])
			out[i].names[s] = strings.Fields(d[s])
		}
	}
	return out
}

// Direction is the direction stage: when the question names one side of
// pairs of directions and not the other ("how is a table decoded"), a
// candidate named for the other side only (its file or folder name or the
// names of its units hold an "encode" word and no "decode" word) scores
// ×factor. The first side of every pair takes data in (read, decode,
// decompress), the second puts it out: a question that names both, even
// across pairs ("how is a compressed block decoded": the data is
// compressed, the question is about decoding), or neither, is left alone.
func Direction(p *Plan, cands []Cand, factor float64) {
	type side struct{ own, other []string }
	var sides []side // per pair the question names one side of
	names := [2]bool{}
	for _, d := range directionTerms() {
		in := slices.ContainsFunc(d.terms[0], func(t string) bool { return slices.Contains(p.Terms, t) })
		out := slices.ContainsFunc(d.terms[1], func(t string) bool { return slices.Contains(p.Terms, t) })
		names[0] = names[0] || in
		names[1] = names[1] || out
		switch {
		case in && !out:
			sides = append(sides, side{d.names[0], d.names[1]})
		case out && !in:
			sides = append(sides, side{d.names[1], d.names[0]})
		}
	}
	if names[0] && names[1] {
		sides = nil
	}
	for _, d := range roleTerms() {
		a := slices.ContainsFunc(d.terms[0], func(t string) bool { return slices.Contains(p.Terms, t) })
		b := slices.ContainsFunc(d.terms[1], func(t string) bool { return slices.Contains(p.Terms, t) })
		switch {
		case a && !b:
			sides = append(sides, side{d.names[0], d.names[1]})
		case b && !a:
			sides = append(sides, side{d.names[1], d.names[0]})
		}
	}
	if len(sides) == 0 {
		return
	}
	var path, unit []string
	for i := range cands {
		c := &cands[i]
		path = nameWords(path[:0], nameParts(c.Path))
		units := append([]string{c.Meta.Symbol}, partSymbols(c.Meta.Parts)...)
		for _, sd := range sides {
			if otherSide(path, units, sd.own, sd.other, unit[:0]) {
				c.Score *= factor
				c.Why.Add(StageCoverage, "direction", factor)
				break
			}
		}
	}
}

// otherSide reports whether a chunk is named for the other side only: no
// word of its file's name or of its units' names is one of own, and its
// file's name or else every unit's name holds a word of other. A merged
// chunk whose units go both ways is left alone (a from_f64 beside a
// deserialize_f64). buf is scratch space.
func otherSide(path, units []string, own, other []string, buf []string) bool {
	holds := func(parts, words []string) bool {
		return slices.ContainsFunc(parts, func(part string) bool {
			return slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(part, w) })
		})
	}
	if holds(path, own) {
		return false
	}
	all := true
	for _, u := range units {
		buf = nameWords(buf[:0], u)
		if holds(buf, own) {
			return false
		}
		all = all && holds(buf, other)
	}
	return holds(path, other) || all && len(units) > 0
}

// partSymbols are the names of a merged chunk's units.
func partSymbols(parts []chunk.Part) []string {
	out := make([]string, len(parts))
	for i, pm := range parts {
		out[i] = pm.Symbol
	}
	return out
}

// nameWords appends the words of name: its runs of letters and digits,
// split again where a lower-case letter meets an upper-case one (readAll,
// Entry.WriteTo, zstd_decompress: read All Entry Write To zstd
// decompress).
func nameWords(out []string, name string) []string {
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, name[start:end])
			start = -1
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= utf8.RuneSelf
		switch {
		case !alnum:
			flush(i)
		case start < 0:
			start = i
		case 'A' <= c && c <= 'Z' && 'a' <= name[i-1] && name[i-1] <= 'z':
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return out
}
