package chunk

import (
	"bytes"
	"strings"

	"github.com/askls/askls/corpus"
)

// Chunk sizes, in lines. A unit (function, type, ...) up to maxUnitLines
// is one chunk; a longer one is cut into windows of windowLines that
// overlap by overlapLines. Files without structure are cut the same way.
const (
	maxUnitLines = 100
	// mergeLines: consecutive small units are merged into one chunk of at
	// most this many lines (fewer, fuller documents index faster and rank
	// better than one-line functions).
	mergeLines   = 40
	windowLines  = 60
	overlapLines = 10
	// maxChunkBytes caps a chunk's text: a chunk of long lines (a data
	// table, a notebook, generated code) is cut further, by bytes, so that
	// no document holds tens of thousands of terms. 18 chunks of GOROOT/src
	// and 145 of the module cache were larger. One line is never cut.
	maxChunkBytes = 16 << 10
)

// Chunk is one searchable unit of a file.
type Chunk struct {
	Start, End int    // 1-based inclusive lines
	Symbol     string // the unit's name ("ServeHTTP"), "" for windows
	Kind       string // its kind (func, method, type, ...)
	// Names are the symbols the chunk defines, with their containers; they
	// feed the symbol field. NameLines holds the line of each (0: the
	// unit's own name, which every window of the unit keeps); a window of
	// a long unit keeps only the names defined on its lines, so that the
	// 200 windows of a const block of 2,800 names do not each carry all
	// 2,800 (golang.org/x/sys/windows/zerrors_windows.go did).
	Names     []string
	NameLines []int
	// Header is indexed with the text: the signature of the unit a
	// continuation window belongs to.
	Header string
	// Parts are the units of a merged chunk.
	Parts []Part
}

// Meta is what the index keeps in memory per chunk.
type Meta struct {
	Start, End int
	Symbol     string
	Kind       string
	Parts      []Part // the units a merged chunk is made of; a hit is narrowed to the best one
	Off, Len   int    // byte range of the chunk in the file as indexed
}

// Part is one unit of a merged chunk.
type Part struct {
	Start, End int
	Symbol     string
	Kind       string
}

// File cuts content, the file at path p (its API path, which the symbols
// carry) in language lang (Language), into chunks and lists its symbols.
func File(p, lang string, content []byte) ([]Chunk, []Symbol) {
	li := NewLines(content)
	var chunks []Chunk
	var syms []Symbol
	switch lang {
	case "go":
		chunks, syms = chunkGo(p, content, li)
	default:
		if ex := outlineExtractors[lang]; ex != nil {
			syms = ex(content, li)
			for i := range syms {
				syms[i].Path = p
				syms[i].Language = lang
			}
			chunks = chunksFromSymbols(syms, li, content)
		}
	}
	if chunks == nil {
		chunks = windows(1, li.Count(), content, li, Chunk{})
	}
	return capBytes(chunks, content, li), syms
}

// capBytes cuts each chunk whose text is over maxChunkBytes into windows
// (which stay under it). The windows keep the chunk's symbol, kind and
// names, and carry its symbol as their header, as the windows of a long
// unit do; a merged chunk's parts are dropped.
func capBytes(chunks []Chunk, content []byte, li Lines) []Chunk {
	var out []Chunk
	for i, c := range chunks {
		if len(li.Text(content, c.Start, c.End)) <= maxChunkBytes {
			if out != nil {
				out = append(out, c)
			}
			continue
		}
		if out == nil {
			out = append(make([]Chunk, 0, len(chunks)+8), chunks[:i]...)
		}
		base := c
		base.Parts = nil
		if base.Header == "" {
			base.Header = base.Symbol
		}
		out = append(out, windows(c.Start, c.End, content, li, base)...)
	}
	if out == nil {
		return chunks
	}
	return out
}

// windows cuts lines from..to into windows of windowLines lines that
// overlap by overlapLines and copy base's symbol and kind; a window of long
// lines ends early at maxChunkBytes (a line longer than that is a window of
// its own) and overlaps less. It skips windows that are blank.
func windows(from, to int, content []byte, li Lines, base Chunk) []Chunk {
	var out []Chunk
	for s := from; s <= to; {
		e := min(s+windowLines-1, to)
		for e > s && len(li.Text(content, s, e)) > maxChunkBytes {
			e--
		}
		if len(bytes.TrimSpace(li.Text(content, s, e))) > 0 {
			c := base
			c.Start, c.End = s, e
			c.Names, c.NameLines = namesIn(base, s, e)
			c.Symbol = windowSymbol(base, c.Names)
			if s != from {
				c.Header = base.Header
			} else {
				c.Header = ""
			}
			out = append(out, c)
		}
		if e == to {
			break
		}
		s = max(s+1, e+1-min(overlapLines, (e-s+1)/6))
	}
	return out
}

// namesIn returns the names of c defined on lines s..e, and the unit's
// own names (line 0).
func namesIn(c Chunk, s, e int) ([]string, []int) {
	if len(c.NameLines) != len(c.Names) {
		return c.Names, c.NameLines // no lines known: all of them
	}
	var names []string
	var lines []int
	for i, l := range c.NameLines {
		if l == 0 || (l >= s && l <= e) {
			names = append(names, c.Names[i])
			lines = append(lines, l)
		}
	}
	return names, lines
}

// windowSymbol names a window of unit c that holds names: a window of a
// const or var group is named after the first name it defines (a hit on
// EADDRINUSE is not shown as E2BIG, the group's first name); any other
// window keeps its unit's name.
func windowSymbol(c Chunk, names []string) string {
	if (c.Kind == "const" || c.Kind == "var") && len(names) > 0 {
		return names[0]
	}
	return c.Symbol
}

// addUnit appends a unit, split into windows when it is long.
func addUnit(out []Chunk, c Chunk, content []byte, li Lines) []Chunk {
	if c.End-c.Start+1 <= maxUnitLines {
		c.Header = ""
		return append(out, c)
	}
	if c.Header == "" {
		c.Header = c.Symbol
	}
	return append(out, windows(c.Start, c.End, content, li, c)...)
}

// mergeSmall merges runs of adjacent small units (blank lines apart at
// most) into chunks of at most mergeLines lines. The first unit's symbol
// names the chunk; every unit's names stay in Names. Package chunks and
// windows of split units are left alone, and a test unit of a file that
// is not a test (corpus.TestUnit) is not merged with code that is not.
func mergeSmall(units []Chunk, lang string) []Chunk {
	var out []Chunk
	for _, u := range units {
		if n := len(out); n > 0 {
			p := &out[n-1]
			if p.Kind != "package" && p.Header == "" && u.Header == "" &&
				u.Start > p.End && u.Start-p.End <= 3 && u.End-p.Start+1 <= mergeLines &&
				lastTest(*p, lang) == corpus.TestUnit(lang, u.Symbol, u.Kind) {
				if len(p.Parts) == 0 {
					p.Parts = []Part{{p.Start, p.End, p.Symbol, p.Kind}}
					p.NameLines = namedLines(*p)
				}
				p.Parts = append(p.Parts, Part{u.Start, u.End, u.Symbol, u.Kind})
				p.End = u.End
				p.Names = append(p.Names, u.Names...)
				p.NameLines = append(p.NameLines, namedLines(u)...)
				if p.Symbol == "" {
					p.Symbol, p.Kind = u.Symbol, u.Kind
				}
				continue
			}
		}
		out = append(out, u)
	}
	return out
}

// lastTest reports whether the last unit of c, a chunk of a file in
// lang, is a test unit (corpus.TestUnit).
func lastTest(c Chunk, lang string) bool {
	if len(c.Parts) > 0 {
		p := c.Parts[len(c.Parts)-1]
		return corpus.TestUnit(lang, p.Symbol, p.Kind)
	}
	return corpus.TestUnit(lang, c.Symbol, c.Kind)
}

// namedLines returns the lines of c's names for a merged chunk: a unit's
// own names (line 0) get the unit's first line.
func namedLines(c Chunk) []int {
	lines := make([]int, len(c.Names))
	for i := range lines {
		if len(c.NameLines) == len(c.Names) && c.NameLines[i] != 0 {
			lines[i] = c.NameLines[i]
		} else {
			lines[i] = c.Start
		}
	}
	return lines
}

// fillGaps adds line windows for stretches of at least three non-blank
// lines that no unit covers (free comments, unparsed code), and returns
// the chunks in line order.
func fillGaps(units []Chunk, content []byte, li Lines) []Chunk {
	covered := make([]bool, li.Count()+2)
	for _, c := range units {
		for l := c.Start; l <= c.End && l < len(covered); l++ {
			covered[l] = true
		}
	}
	out := units
	start := 0
	flush := func(end int) {
		if start == 0 {
			return
		}
		nonblank := 0
		for l := start; l <= end; l++ {
			if len(bytes.TrimSpace(li.Text(content, l, l))) > 0 {
				nonblank++
			}
		}
		switch {
		case nonblank >= 3:
			out = append(out, windows(start, end, content, li, Chunk{})...)
		case nonblank > 0:
			// A line or two (a closing "return M"): the chunk before
			// takes them, else the one after.
			for i := range out {
				if out[i].End == start-1 || (start == 1 && out[i].Start == end+1) {
					out[i].Start, out[i].End = min(out[i].Start, start), max(out[i].End, end)
					break
				}
			}
		}
		start = 0
	}
	for l := 1; l <= li.Count(); l++ {
		if covered[l] {
			flush(l - 1)
			continue
		}
		if start == 0 {
			start = l
		}
	}
	flush(li.Count())
	sortChunks(out)
	return out
}

func sortChunks(cs []Chunk) {
	// insertion sort: chunks are almost in order already
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Start < cs[j-1].Start; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// chunksFromSymbols makes chunks from an outline. The units are the
// top-level symbols and the members of containers that are units
// themselves (a class's methods, an impl's fns, a namespace's classes),
// each from its line to its end line with the comment lines just above
// it; a member is labelled with its container ("LogFiles.exec"). A
// container's own lines (its header, and fields of three lines or more
// between its members) are units labelled with the container; shorter
// gaps (a closing brace) join the unit before them. Any other nested
// symbol (a function inside a function) adds its name to the unit that
// holds it. The top of the file before the first unit is its own chunk.
func chunksFromSymbols(syms []Symbol, li Lines, content []byte) []Chunk {
	if len(syms) == 0 {
		return nil
	}
	o := outlineTree{syms: syms, li: li, content: content, children: make([][]int, len(syms))}
	var roots, stack []int
	for i, s := range syms {
		for len(stack) > 0 && symEnd(syms[stack[len(stack)-1]]) < s.Line {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			o.children[p] = append(o.children[p], i)
		} else {
			roots = append(roots, i)
		}
		stack = append(stack, i)
	}
	lastEnd := 0
	for _, r := range roots {
		lastEnd = o.emit(r, lastEnd, "")
	}
	units := o.units
	var out []Chunk
	if units[0].Start > 1 {
		out = append(out, Chunk{Start: 1, End: units[0].Start - 1, Kind: "file"})
		if out[0].End-out[0].Start+1 > maxUnitLines {
			out = windows(1, units[0].Start-1, content, li, Chunk{Kind: "file"})
		}
	}
	for _, u := range units {
		out = addUnit(out, u, content, li)
	}
	return fillGaps(mergeSmall(out, syms[0].Language), content, li)
}

// outlineTree cuts an outline into units; see chunksFromSymbols.
type outlineTree struct {
	syms     []Symbol
	children [][]int // by symbol: the symbols directly inside it
	li       Lines
	content  []byte
	units    []Chunk
}

func symEnd(s Symbol) int { return max(s.EndLine, s.Line) }

// emit adds the unit(s) of symbol i, whose comment may reach up to the
// line after floor, and returns its last line. A unit inside a container
// is labelled with the container's name.
func (o *outlineTree) emit(i, floor int, container string) int {
	s := o.syms[i]
	start := commentStart(s.Line, floor, o.content, o.li)
	end := symEnd(s)
	label := s.Name
	switch {
	case s.Kind == "method" && s.Container != "":
		label = s.QualifiedName() // res.send = function; widget::render inside a namespace
	case container != "":
		label = container + "." + s.Name
	}
	unit := Chunk{Start: start, End: end, Symbol: label, Kind: s.Kind,
		Names: []string{s.QualifiedName()}, NameLines: []int{0}, Header: s.Signature}
	kids := o.children[i]
	if !containerKinds[s.Kind] || len(kids) == 0 {
		o.addNames(&unit, kids)
		o.units = append(o.units, unit)
		return end
	}
	// A container: its header up to its first member, then each member
	// and the longer stretches between them.
	part := func(from, to int, names []string, lines []int) Chunk {
		c := unit
		c.Start, c.End, c.Names, c.NameLines = from, to, names, lines
		return c
	}
	prev := s.Line
	for k, kid := range kids {
		ks := commentStart(o.syms[kid].Line, prev, o.content, o.li)
		switch {
		case k == 0:
			o.units = append(o.units, part(start, ks-1, unit.Names, unit.NameLines))
		case nonblankLines(o.content, o.li, prev+1, ks-1) >= 3:
			o.units = append(o.units, part(prev+1, ks-1, nil, nil))
		}
		prev = o.emit(kid, prev, s.Name)
	}
	if nonblankLines(o.content, o.li, prev+1, end) >= 3 {
		o.units = append(o.units, part(prev+1, end, nil, nil))
	}
	return end
}

// addNames adds the names of the symbols nested in a unit (and theirs).
func (o *outlineTree) addNames(u *Chunk, kids []int) {
	for _, k := range kids {
		u.Names = append(u.Names, o.syms[k].QualifiedName())
		u.NameLines = append(u.NameLines, o.syms[k].Line)
		o.addNames(u, o.children[k])
	}
}

// nonblankLines counts the lines from..to with text.
func nonblankLines(content []byte, li Lines, from, to int) int {
	n := 0
	for l := max(from, 1); l <= to && l <= li.Count(); l++ {
		if len(bytes.TrimSpace(li.Text(content, l, l))) > 0 {
			n++
		}
	}
	return n
}

// commentStart walks up from line over the comment lines right above it
// (//, #, --, /*, *, ///, decorators) but not above floor. A block comment
// ("*/" last) one blank line above a declaration is its doc comment too
// (express writes them so).
func commentStart(line, floor int, content []byte, li Lines) int {
	start := line
	for l := line - 1; l > floor; l-- {
		t := strings.TrimSpace(string(li.Text(content, l, l)))
		if t == "" {
			if l == line-1 && l-1 > floor && strings.HasSuffix(strings.TrimSpace(string(li.Text(content, l-1, l-1))), "*/") {
				continue
			}
			break
		}
		if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "--") ||
			strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "@") {
			start = l
			continue
		}
		if k := decoratorCallStart(l, floor, content, li); k > 0 {
			start, l = k, k // the last line of "@app.route(\n...\n)"
			continue
		}
		break
	}
	return start
}

// decoratorCallStart: when line l closes a parenthesis opened on an
// earlier line that starts with "@" (a decorator or annotation called
// over several lines), that line; else 0. It looks at most 30 lines up.
func decoratorCallStart(l, floor int, content []byte, li Lines) int {
	t := strings.TrimSpace(string(li.Text(content, l, l)))
	if !strings.HasSuffix(t, ")") {
		return 0
	}
	depth := 0
	for k := l; k > floor && k > l-30; k-- {
		line := string(li.Text(content, k, k))
		for i := len(line) - 1; i >= 0; i-- {
			switch line[i] {
			case ')':
				depth++
			case '(':
				depth--
			}
		}
		if depth <= 0 {
			if strings.HasPrefix(strings.TrimSpace(line), "@") {
				return k
			}
			return 0
		}
	}
	return 0
}
