package store

import (
	"slices"
	"sort"
	"strings"
)

// build builds the base from its files' symbols. It numbers the distinct
// lower-case names in the order met, sorts them, then places each symbol
// in its name's group: one map lookup per symbol and a sort of the
// distinct names only. The decoded symbols' strings are cut from their
// file's block, which is not kept: the strings the table keeps are cut
// from two strings of its own (blob, strBlob) made at the end.
func (b *symBase) build() {
	c := b.collect()
	b.place(c)
	b.count = len(c.recs)
}

// symCollect is what collect gathers for place: the records in the
// files' order, each record's name number, the distinct lower-case names
// (numbered in the order met) and how many records hold each, and the
// names and containers in their own case. The strings are interned
// (interner): the build keeps no string of its own on the heap.
type symCollect struct {
	recs  []symRec
	group []int32   // by record: its name's number
	names *interner // the distinct lower-case names
	count []int32   // by name number
	strs  *interner // names in their own case, containers
}

// collect reads every file's symbols into records, in the order of the
// files' paths, numbering the distinct lower-case names in the order met
// and interning containers, mixed-case names and kinds. Each file's
// decoded symbols are garbage once read, unless kept (KeepDecodedBelow).
func (b *symBase) collect() *symCollect {
	n := 0
	paths := make([]string, 0, len(b.files))
	for p, e := range b.files {
		n += e.SymbolCount()
		paths = append(paths, p)
	}
	sort.Strings(paths)
	b.keepDecoded = n < KeepDecodedBelow
	c := &symCollect{recs: make([]symRec, 0, n), group: make([]int32, 0, n), names: newInterner(n / 2), strs: newInterner(n / 4)}
	kindIDs := map[string]int16{}
	for _, p := range paths {
		e := b.files[p]
		fs := b.symbolsOf(e)
		if len(fs) == 0 {
			continue
		}
		file := int32(len(b.paths))
		b.paths = append(b.paths, p)
		b.entries = append(b.entries, e)
		for i := range fs {
			sym := &fs[i]
			l := strings.ToLower(sym.Name)
			id := c.names.id(l)
			if int(id) == len(c.count) {
				c.count = append(c.count, 0)
			}
			c.count[id]++
			kind, ok := kindIDs[sym.Kind]
			if !ok {
				kind = int16(len(b.kinds))
				kindIDs[strings.Clone(sym.Kind)] = kind
				b.kinds = append(b.kinds, strings.Clone(sym.Kind))
			}
			container := int32(-1)
			if sym.Container != "" {
				container = c.strs.id(sym.Container)
			}
			name := int32(-1) // most names are in lower case already
			if sym.Name != l {
				name = c.strs.id(sym.Name)
			}
			c.recs = append(c.recs, symRec{name: name, container: container, file: file, idx: int32(i),
				line: int32(sym.Line), end: int32(sym.EndLine), kind: kind})
			c.group = append(c.group, id)
		}
	}
	return c
}

// place sorts the distinct names into one blob and puts each record in
// its name's group.
func (b *symBase) place(c *symCollect) {
	names, count := c.names, c.count
	order := make([]int32, names.len()) // numbers in name order
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(names.get(x), names.get(y)) })
	b.first = make([]int32, len(order)+1)
	b.offs = make([]int32, len(order)+1)
	next := make([]int32, len(order)) // by number: next free slot of its group
	var blob strings.Builder
	blob.Grow(len(names.arena) + len(order) + 1)
	blob.WriteByte(0)
	for k, id := range order {
		b.first[k+1] = b.first[k] + count[id]
		next[id] = b.first[k]
		b.offs[k] = int32(blob.Len())
		blob.WriteString(names.get(id))
		blob.WriteByte(0)
	}
	b.blob = blob.String()
	b.offs[len(order)] = int32(len(b.blob))
	names.done()
	b.strBlob, b.strOffs = c.strs.done()
	b.recs = make([]symRec, len(c.recs))
	for i := range c.recs {
		b.recs[next[c.group[i]]] = c.recs[i]
		next[c.group[i]]++
	}
}

// joinStrings is strs joined, and where each starts (with the end last).
func joinStrings(strs []string) (string, []int32) {
	n := 0
	for _, v := range strs {
		n += len(v)
	}
	var sb strings.Builder
	sb.Grow(n)
	offs := make([]int32, 0, len(strs)+1)
	for _, v := range strs {
		offs = append(offs, int32(sb.Len()))
		sb.WriteString(v)
	}
	offs = append(offs, int32(sb.Len()))
	return sb.String(), offs
}
