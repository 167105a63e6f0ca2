package rank

import (
	"slices"
	"strings"
	"sync"

	"github.com/askls/askls/words"
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
	sides, in, out := questionSides(p, directionTerms())
	if in && out {
		sides = nil
	}
	roleSides, _, _ := questionSides(p, roleTerms())
	sides = append(sides, roleSides...)
	if len(sides) == 0 {
		return
	}
	paths := make([]map[string][2]bool, len(sides)) // per side, a file name's (own, other): a file has many chunks
	for k := range paths {
		paths[k] = map[string][2]bool{}
	}
	for i := range cands {
		c := &cands[i]
		for k, sd := range sides {
			named, ok := paths[k][c.Path]
			if !ok {
				named[0], named[1] = nameSides(nameParts(c.Path), sd)
				paths[k][c.Path] = named
			}
			if otherSide(c, sd, named) {
				c.Score *= factor
				c.Why.Add(StageCoverage, "direction", factor)
				break
			}
		}
	}
}

// side is one pair's side the question takes: its own words and the
// other side's, as names write them.
type side struct{ own, other []string }

// questionSides returns the side the question takes in each of pairs it
// names one side of and not the other, and whether it names any first
// (in) side and any second (out) side.
func questionSides(p *Plan, pairs []directionWords) (sides []side, in, out bool) {
	names := func(ts []string) bool {
		return slices.ContainsFunc(ts, func(t string) bool { return slices.Contains(p.Terms, t) })
	}
	for _, d := range pairs {
		a, b := names(d.terms[0]), names(d.terms[1])
		in, out = in || a, out || b
		switch {
		case a && !b:
			sides = append(sides, side{d.names[0], d.names[1]})
		case b && !a:
			sides = append(sides, side{d.names[1], d.names[0]})
		}
	}
	return sides, in, out
}

// otherSide reports whether a candidate is named for the other side
// only: no word of its file's name or of its units' names is one of
// sd.own, and its file's name or else every unit's name holds a word of
// sd.other. A merged chunk whose units go both ways is left alone (a
// from_f64 beside a deserialize_f64). path says whether its file's name
// holds a word of sd.own and of sd.other (nameSides).
func otherSide(c *Cand, sd side, path [2]bool) bool {
	if path[0] {
		return false
	}
	all := true
	unit := func(name string) bool { // false: the unit names its own side
		o, t := nameSides(name, sd)
		all = all && t
		return !o
	}
	if !unit(c.Meta.Symbol) {
		return false
	}
	for _, pm := range c.Meta.Parts {
		if !unit(pm.Symbol) {
			return false
		}
	}
	return path[1] || all
}

// nameSides reports whether name holds a word of sd.own and one of
// sd.other, its words cut as the index cuts code (words.Scan: a name
// whole, then its camelCase, snake_case and dotted parts, lower case).
func nameSides(name string, sd side) (own, other bool) {
	words.Scan([]byte(name), func(_, _ int, term []byte) {
		for _, w := range sd.own {
			own = own || string(term) == w
		}
		for _, w := range sd.other {
			other = other || string(term) == w
		}
	})
	return own, other
}
