package retrieval

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/unit"
)

// maxLeadDoc caps the doc sentence a lead quotes, in bytes.
const maxLeadDoc = 200

// lead is the sentence that opens a retrieval answer, built from what was
// found: the best unit's name, its file and the first sentence of its doc
// comment when it has one, cited as the unit's entry ("`WithCancel` in
// context/context.go returns a derived context … [1].").
func lead(e entry, id int) string {
	name := e.u.Symbol
	if name == "" {
		return fmt.Sprintf("The best match is lines %d-%d of %s [%d].", e.u.Start, e.u.End, e.u.Path, id)
	}
	subject := codeSpan(name) + " in " + e.u.Path
	doc := docSentence(e.ft, e.u)
	if doc == "" {
		return fmt.Sprintf("The best match is %s [%d].", subject, id)
	}
	// "WithCancel returns …", "Package iter provides …": the name is
	// the sentence's subject already.
	bare := tools.SymbolName(strings.TrimPrefix(name, "package "))
	for _, prefix := range []string{bare + " ", "Package " + bare + " ", "The " + bare + " ", "A " + bare + " ", "An " + bare + " "} {
		// Only when a verb follows ("A Pool holds …"), not a noun ("A
		// WebSocket Client."): the sentence is then quoted whole.
		if rest, ok := strings.CutPrefix(doc, prefix); ok && rest != "" && unicode.IsLower([]rune(rest)[0]) {
			return fmt.Sprintf("%s %s [%d].", subject, rest, id)
		}
	}
	return fmt.Sprintf("%s: %s [%d].", subject, doc, id)
}

// docSentence is the first sentence of u's doc comment (the comment
// block above its declaration, else a Python docstring), without its
// final period, or "" when u has none. Brackets and backticks are
// dropped (Go doc links, Markdown code): the sentence is prose, and a
// "[2]" in it would read as a citation.
func docSentence(ft *unit.FileTerms, u unit.Unit) string {
	var parts []string
	if u.Decl > u.Start {
		for l := u.Start; l < u.Decl; l++ {
			parts = append(parts, stripComment(ft.Text(l)))
		}
	} else if s, e := unit.Docstring(ft, u); s > 0 {
		for l := s; l <= e; l++ {
			t := strings.TrimSpace(ft.Text(l))
			t = strings.TrimLeft(t, "rRuUbB")
			t = strings.Trim(t, `"'`)
			parts = append(parts, t)
		}
	}
	text := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
	text = strings.Map(func(r rune) rune {
		switch r {
		case '[', ']', '`':
			return -1
		}
		return r
	}, text)
	if text == "" {
		return ""
	}
	text = firstSentence(text)
	if len(text) > maxLeadDoc {
		k := strings.LastIndexByte(text[:maxLeadDoc], ' ')
		if k < maxLeadDoc/2 {
			k = maxLeadDoc
			for k > 0 && text[k]&0xC0 == 0x80 {
				k--
			}
		}
		text = text[:k] + " …"
	}
	if r := []rune(text); len(r) > 0 && !unicode.IsLetter(r[0]) && !unicode.IsDigit(r[0]) {
		return "" // a banner, a table, a license line: not a sentence
	}
	return text
}

// firstSentence cuts text after its first period followed by a space
// (not after "e.g.", "i.e." or "etc."), dropping that period.
func firstSentence(text string) string {
	for i := 0; i < len(text); i++ {
		if text[i] != '.' || (i+1 < len(text) && text[i+1] != ' ') {
			continue
		}
		word := text[strings.LastIndexByte(text[:i], ' ')+1 : i]
		switch strings.ToLower(word) {
		case "e.g", "i.e", "etc", "vs", "cf":
			continue
		}
		return text[:i]
	}
	return strings.TrimSuffix(text, ".")
}

// stripComment drops the comment markers of a doc comment line: //, #,
// /**, /*, */, a leading *, --, ///.
func stripComment(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "*/")
	for _, p := range []string{"///", "//", "/**", "/*", "*", "#", "--"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			s = rest
			break
		}
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		return "" // a JSDoc tag
	}
	return s
}

// codeSpan writes s as Markdown inline code, with a fence of backticks
// longer than any run in s, so that a backtick in a signature (a Go raw
// string) neither ends the span early nor leaves it open.
func codeSpan(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
