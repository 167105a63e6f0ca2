package words

import (
	"unicode"
	"unicode/utf8"
)

// Parts writes the byte range of each part of word into parts and
// returns how many there are (those beyond len(parts) are counted, not
// written): pieces between dots and
// underscores, further split at lower→Upper changes (fooBar), at the last
// capital of a capital run followed by a lower-case letter (HTTPServer →
// HTTP, Server), and between letters and digits.
func Parts(word []byte, parts [][2]int) int {
	n := 0
	add := func(a, b int) {
		if n < len(parts) {
			parts[n] = [2]int{a, b}
		}
		n++
	}
	start := -1
	prev := classSep
	for i := 0; i < len(word); {
		r, size := rune(word[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(word[i:])
		}
		c := classOf(r)
		if c == classSep {
			if start >= 0 {
				add(start, i)
				start = -1
			}
			prev = classSep
			i += size
			continue
		}
		if start < 0 {
			start = i
		} else {
			boundary := false
			switch {
			case prev == classLower && c == classUpper:
				boundary = true
			case (prev == classDigit) != (c == classDigit):
				boundary = true
			case prev == classUpper && c == classLower && i-start > 1:
				// HTTPServer: the S starts the new part.
				ps := lastRuneStart(word[:i])
				if ps > start {
					add(start, ps)
					start = ps
				}
			}
			if boundary {
				add(start, i)
				start = i
			}
		}
		prev = c
		i += size
	}
	if start >= 0 {
		add(start, len(word))
	}
	return n
}

// charClass is what Parts needs to know of a character.
type charClass uint8

const (
	classSep charClass = iota
	classLower
	classUpper
	classDigit
)

func classOf(r rune) charClass {
	if r < utf8.RuneSelf {
		switch {
		case r == '_' || r == '.':
			return classSep
		case '0' <= r && r <= '9':
			return classDigit
		case 'A' <= r && r <= 'Z':
			return classUpper
		}
		return classLower
	}
	switch {
	case unicode.IsDigit(r):
		return classDigit
	case unicode.IsUpper(r):
		return classUpper
	}
	return classLower
}

func lastRuneStart(b []byte) int {
	_, size := utf8.DecodeLastRune(b)
	return len(b) - size
}
