package citations

// LineSpan returns the byte offsets of lines start..end (1-based,
// inclusive, clamped): from the first byte of line start to the end of line
// end, its newline excluded.
func LineSpan(content []byte, start, end int) (int, int) {
	if start < 1 {
		start = 1
	}
	if end < start {
		end = start
	}
	line, s, e := 1, -1, len(content)
	if start == 1 {
		s = 0
	}
	for i, b := range content {
		if b != '\n' {
			continue
		}
		if line == end {
			e = i
			break
		}
		line++
		if line == start {
			s = i + 1
		}
	}
	if s < 0 { // start past the last line
		return len(content), len(content)
	}
	return s, e
}

// Lines returns the text of lines start..end (1-based, inclusive), each
// ending in "\n" as index.Text does, and whether the range exists in full.
func Lines(content []byte, start, end int) (string, bool) {
	n := CountLines(content)
	if start < 1 || end < start || end > n {
		return "", false
	}
	s, e := LineSpan(content, start, end)
	text := string(content[s:e])
	return text + "\n", true
}

// CountLines is the number of lines in content (a last line without a
// newline counts; an empty file has none).
func CountLines(content []byte) int {
	if len(content) == 0 {
		return 0
	}
	n := 0
	for _, b := range content {
		if b == '\n' {
			n++
		}
	}
	if content[len(content)-1] != '\n' {
		n++
	}
	return n
}

// LineIndex holds the offsets of the lines of one content, for repeated
// line lookups in a large file.
type LineIndex struct {
	content []byte
	starts  []int // starts[i] is the offset of line i+1
}

// NewLineIndex indexes the lines of content.
func NewLineIndex(content []byte) *LineIndex {
	starts := []int{0}
	for i, b := range content {
		if b == '\n' && i+1 < len(content) {
			starts = append(starts, i+1)
		}
	}
	if len(content) == 0 {
		starts = nil
	}
	return &LineIndex{content: content, starts: starts}
}

// Content is the indexed content.
func (x *LineIndex) Content() []byte { return x.content }

// Count is the number of lines, as CountLines.
func (x *LineIndex) Count() int { return len(x.starts) }

// Lines is Lines(content, start, end) in O(end-start).
func (x *LineIndex) Lines(start, end int) (string, bool) {
	if start < 1 || end < start || end > len(x.starts) {
		return "", false
	}
	s := x.starts[start-1]
	e := len(x.content)
	if end < len(x.starts) {
		e = x.starts[end] - 1
	} else if e > 0 && x.content[e-1] == '\n' {
		e--
	}
	return string(x.content[s:e]) + "\n", true
}
