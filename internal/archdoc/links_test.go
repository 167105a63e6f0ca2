package archdoc

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestDocLinksPointAtSomething fails on a relative link of README.md or
// docs/*.md whose file does not exist, and on a #fragment that names no
// heading of the page it points at.
func TestDocLinksPointAtSomething(t *testing.T) {
	root := moduleRoot(t)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"))
	checked := 0
	for _, page := range pages {
		links, err := pageLinks(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, l := range links {
			checked++
			if msg := checkLink(page, l.target); msg != "" {
				t.Errorf("%s:%d: link %q: %s", rel, l.line, l.target, msg)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("found only %d links in README.md and docs/*.md: is the link pattern still right?", checked)
	}
}

type link struct {
	target string
	line   int
}

// inlineLink matches [text](target) and ![alt](target); the target ends
// at the first space or closing parenthesis.
var inlineLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// inlineCode matches a code span of one or more backticks on one line.
var inlineCode = regexp.MustCompile("(`+)[^`]*?(`+)")

// pageLinks returns the inline links of a markdown page outside fenced
// code and code spans.
func pageLinks(path string) ([]link, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var links []link
	for i, text := range proseLines(string(data)) {
		if text == "" {
			continue
		}
		for _, m := range inlineLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(text, ""), -1) {
			links = append(links, link{target: m[1], line: i + 1})
		}
	}
	return links, nil
}

// proseLines returns the page's lines with those inside fenced code blocks
// emptied, so that line numbers stay those of the file.
func proseLines(page string) []string {
	lines := strings.Split(page, "\n")
	fence := ""
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			lines[i] = ""
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			for len(fence) < len(trimmed) && trimmed[len(fence)] == fence[0] {
				fence += fence[:1]
			}
			lines[i] = ""
		}
	}
	return lines
}

// checkLink says what is wrong with a link of page, or "" when nothing is.
// Links with a scheme (https:, mailto:) are not followed.
func checkLink(page, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, fragment, _ := strings.Cut(target, "#")
	path := page
	if file != "" {
		path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
		if _, err := os.Stat(path); err != nil {
			return "no such file"
		}
	}
	if fragment == "" || !strings.HasSuffix(path, ".md") {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if !headingAnchors(string(data))[fragment] {
		return "no heading of " + filepath.Base(path) + " has this anchor"
	}
	return ""
}

var atxHeading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)

// headingAnchors returns the anchors GitHub gives the page's headings:
// the text lower-cased, without punctuation but hyphens and underscores,
// spaces made hyphens; a repeated anchor gets -1, -2, ….
func headingAnchors(page string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, l := range proseLines(page) {
		m := atxHeading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		a := slug(m[1])
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// markdownLink is a link inside a heading, whose text alone counts.
var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

func slug(heading string) string {
	heading = markdownLink.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlugIsGitHubs(t *testing.T) {
	for heading, want := range map[string]string{
		"The Linux kernel":                                     "the-linux-kernel",
		"Retrieval-mode answers: quality":                      "retrieval-mode-answers-quality",
		"`askls/ask`":                                          "asklsask",
		"Index: build, restart and update":                     "index-build-restart-and-update",
		"Why askls speaks the wire itself (and not openai-go)": "why-askls-speaks-the-wire-itself-and-not-openai-go",
		"See [the doc](x.md) now":                              "see-the-doc-now",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
