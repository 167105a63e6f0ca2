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
// files' order, each record's name number, and by number the distinct
// lower-case names and how many records hold each, and the names and
// containers in their own case.
type symCollect struct {
	recs  []symRec
	group []int32  // by record: its name's number
	names []string // by number
	count []int32  // by number
	strs  []string // by number
}

// collect reads every file's symbols into records, in the order of the
// files' paths, numbering the distinct lower-case names in the order met
// and interning containers, mixed-case names and kinds.
func (b *symBase) collect() *symCollect {
	n := 0
	paths := make([]string, 0, len(b.files))
	for p, e := range b.files {
		n += e.SymbolCount()
		paths = append(paths, p)
	}
	sort.Strings(paths)
	b.keepDecoded = n < KeepDecodedBelow
	c := &symCollect{recs: make([]symRec, 0, n), group: make([]int32, 0, n)}
	ids := make(map[string]int32, n/2)
	strIDs := make(map[string]int32, n/2)
	kindIDs := map[string]int16{}
	// own keeps a string for the build: a copy when the files' decoded
	// symbols are not kept, so that each file's block is garbage once
	// read (the kernel's blocks are 257 MB).
	own := func(v string) string {
		if b.keepDecoded {
			return v
		}
		return strings.Clone(v)
	}
	str := func(v string) int32 {
		id, ok := strIDs[v]
		if !ok {
			id = int32(len(c.strs))
			v = own(v)
			strIDs[v] = id
			c.strs = append(c.strs, v)
		}
		return id
	}
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
			id, ok := ids[l]
			if !ok {
				id = int32(len(c.names))
				l = own(l)
				ids[l] = id
				c.names = append(c.names, l)
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
				container = str(sym.Container)
			}
			name := int32(-1) // most names are in lower case already
			if sym.Name != l {
				name = str(sym.Name)
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
	order := make([]int32, len(names)) // numbers in name order
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(names[x], names[y]) })
	b.first = make([]int32, len(names)+1)
	b.offs = make([]int32, len(names)+1)
	next := make([]int32, len(names)) // by number: next free slot of its group
	var blob strings.Builder
	blob.Grow(len(names) * 12)
	blob.WriteByte(0)
	for k, id := range order {
		b.first[k+1] = b.first[k] + count[id]
		next[id] = b.first[k]
		b.offs[k] = int32(blob.Len())
		blob.WriteString(names[id])
		blob.WriteByte(0)
	}
	b.blob = blob.String()
	b.offs[len(names)] = int32(len(b.blob))
	b.strBlob, b.strOffs = joinStrings(c.strs)
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
