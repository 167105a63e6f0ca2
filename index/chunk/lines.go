package chunk

// Lines maps 1-based lines to byte offsets. Lines end at "\n"; a last
// line without one counts, and empty content has no lines. These are the
// lines of citations.CountLines and citations.Lines, which index does not
// import (it knows no protocol): TestLineIndexMatchesCitations ties the two.
type Lines []int // byte offset of the start of each line

// NewLines indexes the lines of content.
func NewLines(content []byte) Lines {
	if len(content) == 0 {
		return nil
	}
	li := Lines{0}
	for i, c := range content {
		if c == '\n' && i+1 < len(content) {
			li = append(li, i+1)
		}
	}
	return li
}

// Count is the number of lines.
func (li Lines) Count() int { return len(li) }

// Text returns lines start..end (1-based inclusive) of content.
func (li Lines) Text(content []byte, start, end int) []byte {
	if start < 1 {
		start = 1
	}
	if end > len(li) {
		end = len(li)
	}
	if start > end {
		return nil
	}
	from := li[start-1]
	to := len(content)
	if end < len(li) {
		to = li[end]
	}
	return content[from:to]
}
