package answerdoc

import (
	"fmt"
	"strings"

	"github.com/askls/askls/thread"
)

// Citation is a citation as a document shows it.
type Citation struct {
	N         int
	Path      string // relative to its workspace folder where it is inside one
	Line, Col int    // 1-based; Col counts UTF-16 units, as the editor does
	Symbol    string
	Excerpt   string
	Stale     bool
}

// Answer is an answer as its document shows it.
type Answer struct {
	ID, Label        string // the answer's id and its label ("q3")
	Question, Answer string
	Notice           string // "; "-separated notices
	Mode, Model      string
	Steps, ToolCalls int
	MS               float64
	Citations        []Citation
}

// Turn is a thread's turn as a document shows it.
type Turn struct {
	Question, Answer string
	Citations        []Citation
}

// AnswerMarkdown renders an answer for reading in any editor: the answer,
// then one "[n] path:line:col" line per citation with its excerpt (what
// Helix's :open and most terminals follow).
func AnswerMarkdown(res Answer) string {
	var b strings.Builder
	title, rest, _ := strings.Cut(strings.TrimSpace(res.Question), "\n")
	fmt.Fprintf(&b, "# %s\n\n", title)
	if rest = strings.TrimSpace(rest); rest != "" {
		b.WriteString(rest + "\n\n")
	}
	// Notices the answer text does not already carry (the workspace puts
	// its own there; the agent's may be in it too).
	for _, n := range strings.Split(res.Notice, "; ") {
		if n != "" && !strings.Contains(res.Answer, n) {
			fmt.Fprintf(&b, "> %s\n\n", n)
		}
	}
	b.WriteString(strings.TrimSpace(res.Answer))
	b.WriteString("\n\n## Citations\n\n")
	if len(res.Citations) == 0 {
		b.WriteString("(none)\n")
	}
	for _, c := range res.Citations {
		b.WriteString(CitationLine(c) + "\n")
		if ex := strings.TrimRight(c.Excerpt, "\n"); ex != "" {
			b.WriteString("\n```\n" + ex + "\n```\n\n")
		}
	}
	fmt.Fprintf(&b, "\n---\nmode: %s", res.Mode)
	if res.Model != "" {
		fmt.Fprintf(&b, " (%s)", res.Model)
	}
	fmt.Fprintf(&b, " · %d steps · %d tool calls · %.0f ms · answer %s (%s)\n", res.Steps, res.ToolCalls, res.MS, res.Label, res.ID)
	return b.String()
}

// ThreadsMarkdown is the workspace's threads as a document, the most
// recent first, one a line with its id first.
func ThreadsMarkdown(list []thread.Summary) string {
	var b strings.Builder
	b.WriteString("# Threads of this workspace\n\n")
	if len(list) == 0 {
		b.WriteString("(none yet: a question asked with space i w or space i q starts one)\n")
	} else {
		b.WriteString("The most recent first. With the cursor on a thread's id, space i o opens it\n(askls.openThread).\n\n")
	}
	for _, t := range list {
		fmt.Fprintf(&b, "%s  %s (%d turns, updated %s)\n", t.ID, t.Title, t.Turns, t.Updated.Local().Format("2006-01-02 15:04"))
	}
	return b.String()
}

// ThreadMarkdown is a thread as a document: its turns in order, each with
// its citation lines.
func ThreadMarkdown(id, title string, turns []Turn) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\nThread %s, %d turns. space i f follows up on the most recent thread;\nfor this one: :lsp-workspace-command askls.ask \"question\" \"\" 0 0 \"%s\"\n", title, id, len(turns), id)
	for _, t := range turns {
		writeTurn(&b, "##", t)
	}
	return b.String()
}

// EarlierTurnsMarkdown is the turns of thread id before its newest,
// newest first, as the answer document shows them below the answer;
// "" when the thread has one turn.
func EarlierTurnsMarkdown(id string, turns []Turn) string {
	if len(turns) < 2 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Earlier in this thread (%s)\n", id)
	for i := len(turns) - 2; i >= 0; i-- {
		writeTurn(&b, "###", turns[i])
	}
	return b.String()
}

// writeTurn writes a turn under a heading of its question's first line.
func writeTurn(b *strings.Builder, heading string, t Turn) {
	title, _, _ := strings.Cut(strings.TrimSpace(t.Question), "\n")
	fmt.Fprintf(b, "\n%s %s\n\n%s\n\n", heading, title, strings.TrimSpace(t.Answer))
	for _, c := range t.Citations {
		b.WriteString(CitationLine(c) + "\n")
	}
}

// CitationLine is a citation as a document shows it:
// "[n] path:line:col `Symbol`", in a form editors' go-to-file follows.
func CitationLine(c Citation) string {
	line := fmt.Sprintf("[%d] %s:%d:%d", c.N, c.Path, c.Line, c.Col)
	if c.Symbol != "" {
		line += " " + codeSpan(c.Symbol)
	}
	if c.Stale {
		line += " (stale: the cited code changed)"
	}
	return line
}

// codeSpan is s as inline markdown code, so that "*T" is not read as
// emphasis; s as is when it holds a backtick.
func codeSpan(s string) string {
	if strings.Contains(s, "`") {
		return s
	}
	return "`" + s + "`"
}

// SafeName is s with every character but letters, digits, '-' and '_'
// replaced by '_': a file name on every system.
func SafeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, s)
}
