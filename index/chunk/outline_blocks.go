package chunk

import "bytes"

// The end of a declaration by its language's block style: braces
// (outline_braces.go), indentation (Python) or an "end" keyword (Ruby,
// Lua).

// blockEnd finds the last line of the declaration that starts on line l.
func (o *outliner) blockEnd(content []byte, li Lines, l int) int {
	switch o.style {
	case indentation:
		k, inline, ok := pythonHeaderEnd(content, li, l)
		if ok && inline {
			return k // a one-line body: "def f(): ...", "class E: pass"
		}
		if !ok {
			k = l
		}
		return indentEndFrom(content, li, l, k)
	case endKeyword:
		indent := indentOf(li.Text(content, l, l))
		for k := l + 1; k <= li.Count() && k < l+5000; k++ {
			t := li.Text(content, k, k)
			trim := bytes.TrimSpace(t)
			if len(trim) == 0 {
				continue
			}
			if indentOf(t) == indent && (bytes.Equal(trim, []byte("end")) || bytes.HasPrefix(trim, []byte("end ")) ||
				bytes.HasPrefix(trim, []byte("end)")) || bytes.HasPrefix(trim, []byte("end,"))) {
				return k
			}
			if indentOf(t) < indent {
				return k - 1
			}
		}
		return indentEnd(content, li, l)
	}
	return o.braceEnd(content, li, l)
}

// indentEnd: the block of line l ends before the next non-blank line
// indented no deeper than l, once the header (up to a line ending in ':')
// is over.
func indentEnd(content []byte, li Lines, l int) int {
	k := l
	// Skip a multi-line header.
	for k <= li.Count() && k < l+30 {
		t := bytes.TrimRight(li.Text(content, k, k), " \t\r\n")
		if i := bytes.IndexByte(t, '#'); i >= 0 {
			t = bytes.TrimRight(t[:i], " \t")
		}
		if bytes.HasSuffix(t, []byte(":")) {
			break
		}
		k++
	}
	if k > l+29 {
		k = l
	}
	return indentEndFrom(content, li, l, k)
}

// indentEndFrom is indentEnd once the header of the block that starts on
// line l is known to end on line k: the last line indented more than l
// (multi-line strings whatever their indentation).
func indentEndFrom(content []byte, li Lines, l, k int) int {
	indent := indentOf(li.Text(content, l, l))
	end := k
	quote := "" // the triple quote of a string open across lines
	for m := k + 1; m <= li.Count(); m++ {
		t := li.Text(content, m, m)
		if quote != "" {
			// A line of a multi-line string, however indented.
			end = m
			quote = tripleQuote(t, quote)
			continue
		}
		if len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		if indentOf(t) <= indent {
			break
		}
		end = m
		quote = tripleQuote(t, "")
	}
	return end
}

// tripleQuote returns the triple quote (three double or three single
// quotes) still open after line t, given the one open before it ("" for
// none).
func tripleQuote(t []byte, open string) string {
	if open == "" && !bytes.Contains(t, []byte(`"""`)) && !bytes.Contains(t, []byte("'''")) {
		return ""
	}
	for i := 0; i < len(t); i++ {
		if open == "" && t[i] == '#' {
			return ""
		}
		q := t[i:min(i+3, len(t))]
		switch {
		case open != "" && string(q) == open:
			open = ""
			i += 2
		case open == "" && (string(q) == `"""` || string(q) == "'''"):
			open = string(q)
			i += 2
		case open == "" && (t[i] == '"' || t[i] == '\''):
			i = quoteEnd(t, i) // "'''" is a one-line string, no triple quote
		}
	}
	return open
}

// quoteEnd returns the index of the quote that closes the one-line string
// opened at t[i], or the line's last byte when none does.
func quoteEnd(t []byte, i int) int {
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case t[i]:
			return j
		}
	}
	return len(t) - 1
}

func indentOf(line []byte) int {
	n := 0
	for _, c := range line {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}
