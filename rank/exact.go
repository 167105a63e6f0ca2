package rank

import (
	"math"
	"slices"
	"strings"

	"github.com/askls/askls/words"
)

// Exact is the exact identifiers stage: it applies ExactMissFactor and
// DefinitionBoost to the best n candidates (reading their text) and
// ExactMissFactor to the others, which rank too low to be read: an
// identifier the user wrote as code is what they mean, its parts are
// only a hint. It sorts cands by score first.
func Exact(p *Plan, prm *Params, cands []Cand, n int, read Read) {
	codeTerms := 0
	for _, t := range p.Terms {
		if p.Code[t] {
			codeTerms++
		}
	}
	miss := missFactor(prm.ExactMissFactor, max(codeTerms, len(p.Idents)), len(p.Terms))
	byScore(cands)
	pool := cands[:min(len(cands), n)]
	read(pool)
	for i := range cands {
		c := &cands[i]
		if i >= len(pool) {
			c.Score *= miss
			c.Why.Add(StageExact, "unread", miss)
			continue
		}
		held, defines := false, false
		for _, id := range p.Idents {
			if p.defines(c, id) {
				defines = true
			}
			if holdsIdent(c.Text, id) || holdsIdent([]byte(c.Path), id) {
				held = true
			}
		}
		switch {
		case defines && !c.Test && (p.Lookup || !Bodiless(c)):
			c.Score *= prm.DefinitionBoost
			c.Why.Add(StageExact, "definition", prm.DefinitionBoost)
		case !held:
			c.Score *= miss
			c.Why.Add(StageExact, "missing", miss)
		}
	}
}

// missFactor is what a chunk that holds none of the query's identifiers
// scores: factor to the power of the identifiers' share of the query's
// terms (code: the terms of words written as code). A lookup that is
// one identifier (maxTokenSize: the whole and its parts) takes factor
// itself; in a question of ten terms with one identifier, the
// identifier is a tenth of what is asked (factor^0.1).
func missFactor(factor float64, code, terms int) float64 {
	if terms == 0 || code >= terms {
		return factor
	}
	return math.Pow(factor, float64(code)/float64(terms))
}

// holdsIdent reports whether text holds the identifier id (lower case) as
// a whole word, case aside: not inside a longer identifier.
func holdsIdent(text []byte, id string) bool {
	if len(id) == 0 {
		return false
	}
	for off := 0; off+len(id) <= len(text); {
		i := indexFold(text[off:], id)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(id)
		if (i == 0 || !words.IsIdentByte(text[i-1])) && (end == len(text) || !words.IsIdentByte(text[end])) {
			return true
		}
		off = i + 1
	}
	return false
}

// indexFold is bytes.Index with ASCII case folding; id is lower case.
func indexFold(text []byte, id string) int {
	first := id[0]
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for i := 0; i+len(id) <= len(text); i++ {
		c := text[i]
		if c != first && c != upper {
			continue
		}
		j := 1
		for ; j < len(id); j++ {
			c := text[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != id[j] {
				break
			}
		}
		if j == len(id) {
			return i
		}
	}
	return -1
}

// defines reports whether c defines the identifier id (lower case): its
// symbol's last name (a method's after its type's) is id. A name the
// query qualifies (assert.Equal, widget::render) must match as written,
// case included, in a type or under a folder or file named like a
// qualifier (Qualifier.under): widget.render, a method of widget's.
func (p *Plan) defines(c *Cand, id string) bool {
	sym := LastName(c.Meta.Symbol)
	container := strings.TrimRight(strings.TrimSuffix(c.Meta.Symbol, sym), ". ")
	if container != "" && strings.EqualFold(LastName(container), sym) {
		return false // a constructor (Java, C#, C++): the class is what its name means
	}
	q, qualified := p.Qualifiers[id]
	if !qualified {
		return strings.EqualFold(sym, id)
	}
	if sym != q.Name {
		return false
	}
	for _, s := range q.scopes() {
		if container != "" && strings.EqualFold(LastName(container), s) || under(c.Path, s, p.Projects) {
			return true
		}
	}
	return false
}

// under reports whether path is where the package pkg is: a folder or
// file named like it, or the root of a project of that name (chi.Walk in
// chi's tree.go).
func under(path, pkg string, projects []string) bool {
	dir, file := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, file = path[:i], path[i+1:]
	}
	if i := strings.IndexByte(file, '.'); i > 0 {
		file = file[:i]
	}
	if strings.EqualFold(file, pkg) {
		return true
	}
	if dir == "" {
		return slices.Contains(projects, pkg)
	}
	for _, seg := range strings.Split(dir, "/") {
		if strings.EqualFold(seg, pkg) {
			return true
		}
	}
	return false
}
