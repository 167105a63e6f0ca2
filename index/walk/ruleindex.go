package walk

import "strings"

// minIndexed is the number of rules from which a list is indexed: below
// it, asking each rule is as fast.
const minIndexed = 8

// ruleList is the rules of one ignore source (a folder's ignore files,
// or the global ones), indexed when they are many.
type ruleList struct {
	rules []rule
	idx   *ruleIndex // nil: ask every rule
}

func newRuleList(rs []rule) ruleList {
	l := ruleList{rules: rs}
	if len(rs) >= minIndexed {
		l.idx = newRuleIndex(rs)
	}
	return l
}

// ruleIndex finds the last rule of a list that matches a path without
// asking each: the rules that name a base name, a path or an extension
// (most of them: a kernel's top-level .gitignore has ~100 rules, and
// every file of the tree is asked about) are found by map lookups of the
// path's, the rest asked one by one from the last, down to the last
// literal match.
type ruleIndex struct {
	base map[string]lastRule // matchBase rules by their name
	path map[string]lastRule // matchPath rules by their path
	ext  map[string]lastRule // matchBaseSuffix rules whose suffix starts with a dot ("*.o", "*.mod.c")
	rest []int32             // the other rules' positions, ascending
}

// lastRule is the position of the last rule with one literal that
// applies to a file (not a folder-only rule) and to a folder; -1: none.
type lastRule struct{ file, dir int32 }

func newRuleIndex(rs []rule) *ruleIndex {
	ix := &ruleIndex{base: map[string]lastRule{}, path: map[string]lastRule{}, ext: map[string]lastRule{}}
	for i := range rs {
		r := &rs[i]
		var m map[string]lastRule
		switch r.fast {
		case matchBase:
			m = ix.base
		case matchPath:
			m = ix.path
		case matchBaseSuffix:
			if !strings.HasPrefix(r.lit, ".") {
				ix.rest = append(ix.rest, int32(i))
				continue
			}
			m = ix.ext
		default:
			ix.rest = append(ix.rest, int32(i))
			continue
		}
		last, ok := m[r.lit]
		if !ok {
			last = lastRule{file: -1, dir: -1}
		}
		last.dir = int32(i) // rules come in order: i is the last so far
		if !r.dirOnly {
			last.file = int32(i)
		}
		m[r.lit] = last
	}
	return ix
}

// last is the position of the last rule of l that matches sub, a path
// relative to the rules' folder whose last element is base (a folder
// when isDir), or -1 when none does.
func (l *ruleList) last(sub, base string, isDir bool) int {
	if l.idx == nil {
		return lastMatch(l.rules, len(l.rules)-1, -1, sub, base, isDir)
	}
	best := -1
	pick := func(last lastRule, ok bool) {
		i := int(last.file)
		if isDir {
			i = int(last.dir)
		}
		if ok && i > best {
			best = i
		}
	}
	last, ok := l.idx.base[base]
	pick(last, ok)
	last, ok = l.idx.path[sub]
	pick(last, ok)
	if len(l.idx.ext) > 0 {
		// A suffix that starts with a dot starts at one of base's dots.
		for i := strings.IndexByte(base, '.'); i >= 0; {
			last, ok = l.idx.ext[base[i:]]
			pick(last, ok)
			j := strings.IndexByte(base[i+1:], '.')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	for k := len(l.idx.rest) - 1; k >= 0; k-- {
		i := int(l.idx.rest[k])
		if i <= best {
			break
		}
		if r := &l.rules[i]; (!r.dirOnly || isDir) && r.matches(sub, base) {
			return i
		}
	}
	return best
}

// lastMatch is the position of the last rule of rs from from down to
// above stop that matches sub (base, isDir as in last), or -1.
func lastMatch(rs []rule, from, stop int, sub, base string, isDir bool) int {
	for i := from; i > stop; i-- {
		if r := &rs[i]; (!r.dirOnly || isDir) && r.matches(sub, base) {
			return i
		}
	}
	return -1
}
