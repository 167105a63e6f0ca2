package citations

import (
	"strconv"
	"strings"
)

// maxMarkerLen bounds how far a '[' may be from its ']' in a path
// reference; a numeric marker ("[1, 2, 3, …]") may be longer.
const maxMarkerLen = 48

// numericByte reports whether b may appear in a numeric marker: digits,
// spaces, commas, hyphens and the bytes of an en dash.
func numericByte(b byte) bool {
	return '0' <= b && b <= '9' || b == ' ' || b == ',' || b == '-' || b == 0xE2 || b == 0x80 || b == 0x93
}

// parseMarker parses the body of a marker (the text between '[' and ']'):
// "3", "1, 4", "2-5", "1,3-4". ok is false when it is not a marker. Ranges
// are expanded up to limit (numbers above it name nothing); a number too
// large to read is -1.
func parseMarker(body string, limit int) (ids []int, ok bool) {
	if strings.TrimSpace(body) == "" {
		return nil, false
	}
	for i := 0; i < len(body); i++ {
		if !numericByte(body[i]) {
			return nil, false
		}
	}
	number := func(s string) (int, bool) {
		s = strings.TrimSpace(s)
		if s == "" {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return -1, strings.Trim(s, "0123456789") == ""
		}
		return n, true
	}
	for _, part := range strings.Split(body, ",") {
		part = strings.ReplaceAll(strings.TrimSpace(part), "–", "-") // en dash
		lo, hi, isRange := strings.Cut(part, "-")
		a, ok := number(lo)
		if !ok {
			return nil, false
		}
		if !isRange {
			ids = append(ids, a)
			continue
		}
		b, ok := number(hi)
		if !ok || (b < a && b != -1) || a == -1 {
			return nil, false
		}
		if b == -1 || b > limit {
			b = max(limit, a)
		}
		for n := a; n <= b; n++ {
			ids = append(ids, n)
		}
	}
	return ids, true
}

// markerByte reports whether b may appear between '[' and ']' of a marker:
// digits, spaces, commas, hyphens, the bytes of an en dash, and what a
// path reference "dir/file.go:10-12" needs.
func markerByte(b byte) bool {
	return '0' <= b && b <= '9' || b == ' ' || b == ',' || b == '-' || b == 0xE2 || b == 0x80 || b == 0x93 ||
		'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b == '/' || b == '.' || b == '_' || b == ':'
}

// parsePathRef parses a path reference "dir/file.go:10" or
// "dir/file.go:10-12" (also "L10"). ok is false for anything else.
func parsePathRef(body string) (path string, lo, hi int, ok bool) {
	body = strings.TrimSpace(body)
	i := strings.LastIndexByte(body, ':')
	if i <= 0 || strings.ContainsAny(body[:i], " ,") || !strings.ContainsAny(body[:i], "./") {
		return "", 0, 0, false
	}
	path = strings.TrimPrefix(body[:i], "./")
	for j := 0; j < len(path); j++ {
		if c := path[j]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '/' || c == '_' || c == '-') {
			return "", 0, 0, false
		}
	}
	lines := strings.TrimPrefix(strings.ReplaceAll(body[i+1:], "–", "-"), "L")
	a, b, isRange := strings.Cut(lines, "-")
	lo, err := strconv.Atoi(a)
	if err != nil || lo < 1 {
		return "", 0, 0, false
	}
	hi = lo
	if isRange {
		hi, err = strconv.Atoi(strings.TrimPrefix(b, "L"))
		if err != nil || hi < lo {
			return "", 0, 0, false
		}
	}
	return path, lo, hi, true
}

// isWordByte reports whether b before '[' makes it an index expression
// (x[1], f()[2], "s"[0]) rather than a citation.
func isWordByte(b byte) bool {
	return b == '_' || b == ')' || b == '"' || b == '\'' ||
		'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
