package workspace

// IdentAt returns the identifier around byte off of content and the
// identifier before it when a '.' joins them ("context" for
// context.WithCancel); "" when off is not in an identifier.
func IdentAt(content []byte, off int) (name, qual string) {
	isIdent := func(c byte) bool {
		return c == '_' || c == '$' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	if off > len(content) {
		return "", ""
	}
	start, end := off, off
	for start > 0 && isIdent(content[start-1]) {
		start--
	}
	for end < len(content) && isIdent(content[end]) {
		end++
	}
	if start == end || '0' <= content[start] && content[start] <= '9' {
		return "", ""
	}
	name = string(content[start:end])
	if start > 1 && content[start-1] == '.' {
		qs := start - 1
		for qs > 0 && isIdent(content[qs-1]) {
			qs--
		}
		qual = string(content[qs : start-1])
	}
	return name, qual
}
