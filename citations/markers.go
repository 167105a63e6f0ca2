package citations

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Limits on how far a '[' or '(' may be from its closing byte for the
// text between to be read as a marker (a longer one is prose, and the
// rewriter holds back at most this much of a stream): a path reference
// with a long path, a file:// URI; a numeric marker ("[1, 2, 3, …]") may
// be longer, up to maxNumericLen.
const (
	maxMarkerLen = 256
	maxURILen    = 1024
	// maxNumericLen bounds a numeric marker: a longer one is dropped.
	maxNumericLen = 1024
	// maxLinkLen bounds the link targets "(…)" stripped after a marker.
	maxLinkLen = 2048
)

// numericByte reports whether b may appear in a numeric marker: digits,
// spaces, commas, semicolons, hyphens and the bytes of an en dash.
func numericByte(b byte) bool {
	return '0' <= b && b <= '9' || b == ' ' || b == ',' || b == ';' || b == '-' || b == 0xE2 || b == 0x80 || b == 0x93
}

// parseMarker parses the body of a numeric marker (the text between '['
// and ']'): "3", "1, 4", "1; 4", "2-5", "1,3-4". ok is false when it is
// not numeric. Ranges are expanded up to limit (numbers above it name
// nothing); a number too large to read is -1. Parts that are numeric in
// shape but name nothing ("3-1", "4-", "") are returned in bad.
func parseMarker(body string, limit int) (ids []int, ok bool) {
	ids, _, ok = parseNumeric(body, limit)
	return ids, ok
}

func parseNumeric(body string, limit int) (ids []int, bad []string, ok bool) {
	if !strings.ContainsAny(body, "0123456789") {
		return nil, nil, false
	}
	for i := 0; i < len(body); i++ {
		if !numericByte(body[i]) {
			return nil, nil, false
		}
	}
	if strings.Contains(body, "\xe2") && !strings.Contains(body, "–") {
		return nil, nil, false // a byte of another character than the en dash
	}
	number := func(s string) (int, bool) {
		s = strings.TrimSpace(s)
		if s == "" || strings.Trim(s, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return -1, true
		}
		return n, true
	}
	for _, part := range splitParts(body) {
		part = strings.ReplaceAll(strings.TrimSpace(part), "–", "-") // en dash
		lo, hi, isRange := strings.Cut(part, "-")
		a, okA := number(lo)
		if !isRange {
			if !okA {
				bad = append(bad, part)
				continue
			}
			ids = append(ids, a)
			continue
		}
		b, okB := number(hi)
		if !okA || !okB || a == -1 || (b < a && b != -1) {
			bad = append(bad, part)
			continue
		}
		if b == -1 || b > limit {
			b = max(limit, a)
		}
		for n := a; n <= b; n++ {
			ids = append(ids, n)
		}
	}
	return ids, bad, true
}

// splitParts splits a marker body at commas and semicolons.
func splitParts(body string) []string {
	return strings.FieldsFunc(body+",", func(r rune) bool { return r == ',' || r == ';' })
}

// markerByte reports whether b may appear between '[' and ']' of a marker
// (which is then read as numeric, a list of path references, or not a
// marker): anything but a line break, brackets, parentheses and
// backticks.
func markerByte(b byte) bool {
	return b != '\n' && b != '[' && b != ']' && b != '(' && b != ')' && b != '`'
}

// pathRefShape is what reads as a reference to lines of a file: a path (or
// file:// URI) and a line spec ":10", ":10-12", ":L10", ":10:4" (line and
// column), "#L10", "#L10-L12".
var pathRefShape = regexp.MustCompile(`^(?:file://)?([^\s,;]*?)(?::L?(\d+)(?:\s*(?:-|–)\s*L?(\d+))?(?::\d+)?|#L(\d+)(?:-L?(\d+))?)$`)

// pathRef is one path reference in a marker.
type pathRef struct {
	path   string
	lo, hi int
	uri    bool // from a file:// URI: the path is absolute
	valid  bool // a path askls can look up and lines that can exist
}

// parseRef reads one part of a marker body as a path reference. ok is
// false when it is not shaped like one (then it is plain text); a
// reference that is shaped like one but cannot name anything (line 0, a
// path with "…" or "..") has valid false and is dropped.
func parseRef(part string) (ref pathRef, ok bool) {
	part = strings.TrimSpace(part)
	m := pathRefShape.FindStringSubmatch(part)
	if m == nil || m[1] == "" || !strings.ContainsAny(m[1], "./") {
		return pathRef{}, false
	}
	ref.uri = strings.HasPrefix(part, "file://")
	p := m[1]
	if ref.uri {
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
	}
	ref.path = strings.TrimPrefix(p, "./")
	lo, hi := m[2], m[3]
	if m[4] != "" {
		lo, hi = m[4], m[5]
	}
	var err error
	if ref.lo, err = strconv.Atoi(lo); err != nil {
		return ref, true
	}
	ref.hi = ref.lo
	if hi != "" {
		if ref.hi, err = strconv.Atoi(hi); err != nil {
			return ref, true
		}
	}
	ref.valid = ref.lo >= 1 && ref.hi >= ref.lo && safePath(ref.path) && (!strings.HasPrefix(ref.path, "/") || ref.uri)
	return ref, true
}

// safePath: only the bytes of ordinary file names, no ".." segment.
func safePath(p string) bool {
	for j := 0; j < len(p); j++ {
		if c := p[j]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '/' || c == '_' || c == '-' || c == '+' || c == '~') {
			return false
		}
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

// isWordByte reports whether b before '[' makes it an index expression
// (x[1], f()[2], "s"[0]) rather than a citation.
func isWordByte(b byte) bool {
	return b == '_' || b == ')' || b == '"' || b == '\'' ||
		'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
