package tools

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/index"
)

// Limits of the tools. Each tool result is compact text: a header per
// piece of evidence "[n] path:start-end", then numbered lines.
const (
	maxToolChars     = 6000 // one tool result
	maxReadLines     = 120  // read_file
	defaultReadLines = 80   // read_file without end_line
	hitWindowLines   = 12   // lines shown per search hit
	maxLineChars     = 240  // a shown line is cut after this
	defaultHits      = 8
	maxHits          = 20
	defaultGrep      = 30
	maxGrep          = 60
	maxListFiles     = 200
	maxSymbols       = 20
	maxOutlineItems  = 80
)

// param is one argument of a tool.
type param struct {
	name, typ, desc string
	required        bool
}

// tool is one read-only tool the model may call.
type tool struct {
	name, desc string
	params     []param
	run        func(tb *Box, ctx context.Context, a Args) (string, string, error) // text for the model, summary for the step
}

// tools is the tool list, in the order the model sees it.
var tools = []tool{
	{
		name: "search_code",
		desc: "Ranked search of the workspace (code-aware: identifiers, words of comments). Start here. Returns the best chunks with path, lines and evidence numbers.",
		params: []param{
			{"query", "string", "words or identifiers, e.g. \"content type sniff ServeHTTP\"", true},
			{"limit", "integer", fmt.Sprintf("number of results, default %d, at most %d", defaultHits, maxHits), false},
		},
		run: (*Box).searchCode,
	},
	{
		name: "grep",
		desc: "Regular expression (Go syntax) over every line of the current files. Use for exact identifiers or strings.",
		params: []param{
			{"pattern", "string", "Go regular expression, e.g. \"func \\\\(.*\\\\) ServeHTTP\"", true},
			{"path_glob", "string", "only files matching this glob, e.g. \"net/http/**\" or \"*.go\"", false},
		},
		run: (*Box).grep,
	},
	{
		name: "read_file",
		desc: fmt.Sprintf("Read lines of a file (at most %d at a time). Read before you claim what code does.", maxReadLines),
		params: []param{
			{"path", "string", "path relative to the workspace root, as the other tools print it", true},
			{"start_line", "integer", "first line, 1-based (default 1)", false},
			{"end_line", "integer", fmt.Sprintf("last line, inclusive (default start_line+%d)", defaultReadLines-1), false},
		},
		run: (*Box).readFile,
	},
	{
		name: "list_files",
		desc: "List workspace files matching a glob (\"**\" crosses folders).",
		params: []param{
			{"glob", "string", "e.g. \"net/http/*.go\" or \"**/README*\"", true},
		},
		run: (*Box).listFiles,
	},
	{
		name: "find_symbol",
		desc: "Find functions, types, methods, variables by name (exact, then prefix, then substring).",
		params: []param{
			{"name", "string", "symbol name, e.g. \"ServeHTTP\" or \"Server.Serve\"", true},
		},
		run: (*Box).findSymbol,
	},
	{
		name: "find_references",
		desc: "Every occurrence of a name in code (not comments or strings) across the workspace, counted and listed by folder: who calls a function, where a type or variable is used; or, with implementations, the types that implement an interface or trait or extend a class.",
		params: []param{
			{"name", "string", "the name, e.g. \"WithCancel\", \"context.WithCancel\" or \"Server.Shutdown\"", true},
			{"calls", "boolean", "only calls (name followed by '('), default false", false},
			{"implementations", "boolean", "instead of occurrences, the types that implement the named interface or trait, or extend the named class (Go: by method set), default false", false},
			{"tests", "boolean", "include test files, default false", false},
		},
		run: (*Box).findReferencesTool,
	},
	{
		name: "outline",
		desc: "The symbols of one file with their signatures and lines: a cheap look before read_file.",
		params: []param{
			{"path", "string", "path relative to the workspace root", true},
		},
		run: (*Box).outline,
	},
}

func toolByName(name string) (tool, bool) {
	for _, t := range tools {
		if t.name == name {
			return t, true
		}
	}
	return tool{}, false
}

// Run runs the tool named name with the arguments a.
func (tb *Box) Run(ctx context.Context, name string, a Args) (text, summary string, err error) {
	t, ok := toolByName(name)
	if !ok {
		return "", "", fmt.Errorf("there is no tool %q; the tools are %s", name, strings.Join(Names(), ", "))
	}
	return t.run(tb, ctx, a)
}

// Known reports whether there is a tool named name.
func Known(name string) bool {
	_, ok := toolByName(name)
	return ok
}

func Names() []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.name)
	}
	return out
}

func (tb *Box) searchCode(ctx context.Context, a Args) (string, string, error) {
	q, err := a.str("query", true)
	if err != nil {
		return "", "", err
	}
	limit, err := a.integer("limit", defaultHits)
	if err != nil {
		return "", "", err
	}
	limit = clamp(limit, 1, maxHits)
	hits, err := tb.src.Search(ctx, q, limit, index.Filter{})
	if err != nil {
		return "", "", fmt.Errorf("search %q: %w", q, err)
	}
	if len(hits) == 0 {
		return fmt.Sprintf("no results for %q; try other words, grep for an identifier, or list_files", q), "0 hits", nil
	}
	var w strings.Builder
	shown := 0
	seen := map[[3]any]bool{}
	for _, h := range hits {
		f, err := tb.File(h.Path)
		if err != nil {
			continue
		}
		// The lines of the hit's unit that hold the query (spans.go), as
		// the retrieval answer cites them; two hits of one unit show it
		// once.
		start, end := tb.hitSpan(q, h, f, hitWindowLines)
		if key := [3]any{h.Path, start, end}; seen[key] {
			continue
		} else {
			seen[key] = true
		}
		note := symbolNote(h.Kind, h.Symbol)
		if _, ok := tb.evidence(&w, h.Path, f, start, end, h.Symbol, note); ok {
			shown++
		}
		if w.Len() > maxToolChars {
			break
		}
	}
	return w.String(), fmt.Sprintf("%d hits", shown), nil
}

func symbolNote(kind, name string) string {
	switch {
	case name == "":
		return ""
	case kind == "":
		return "(" + name + ")"
	default:
		return "(" + kind + " " + name + ")"
	}
}

func (tb *Box) grep(ctx context.Context, a Args) (string, string, error) {
	pat, err := a.str("pattern", true)
	if err != nil {
		return "", "", err
	}
	glob, err := a.str("path_glob", false)
	if err != nil {
		return "", "", err
	}
	ms, err := tb.src.Grep(ctx, pat, glob, maxGrep+1)
	if err != nil {
		return "", "", fmt.Errorf("grep %q: %w", pat, err)
	}
	if len(ms) == 0 {
		return fmt.Sprintf("no line matches %q%s", pat, inGlob(glob)), "0 matches", nil
	}
	more := len(ms) > defaultGrep
	if more {
		ms = ms[:defaultGrep]
	}
	var w strings.Builder
	for _, m := range ms {
		f, err := tb.File(m.Path)
		if err != nil {
			continue
		}
		text, ok := f.Lines(m.Line, m.Line)
		if !ok {
			continue
		}
		id := tb.reg.Add(m.Path, m.Line, m.Line, text, "")
		fmt.Fprintf(&w, "[%d] %s:%d: %s\n", id, m.Path, m.Line, CutLine(strings.TrimSpace(strings.TrimSuffix(text, "\n"))))
		if w.Len() > maxToolChars {
			more = true
			break
		}
	}
	if more {
		w.WriteString("(more matches not shown: narrow the pattern or path_glob)\n")
	}
	return w.String(), fmt.Sprintf("%d matches", len(ms)), nil
}

func inGlob(glob string) string {
	if glob == "" {
		return ""
	}
	return " in " + glob
}

func (tb *Box) readFile(ctx context.Context, a Args) (string, string, error) {
	raw, err := a.str("path", true)
	if err != nil {
		return "", "", err
	}
	p, err := cleanPath(raw)
	if err != nil {
		return "", "", err
	}
	start, err := a.integer("start_line", 1)
	if err != nil {
		return "", "", err
	}
	end, err := a.integer("end_line", max(start, 1)+defaultReadLines-1)
	if err != nil {
		return "", "", err
	}
	f, err := tb.File(p)
	if err != nil {
		return "", "", tb.notFound(p, err)
	}
	n := f.Count()
	if n == 0 {
		return fmt.Sprintf("%s is empty", p), "empty", nil
	}
	if start > n {
		return "", "", fmt.Errorf("%s has %d lines; start_line %d is past the end", p, n, start)
	}
	start = max(start, 1)
	end = clamp(end, start, n)
	var notes []string
	if end-start+1 > maxReadLines {
		end = start + maxReadLines - 1
		notes = append(notes, fmt.Sprintf("truncated to %d lines; read on from line %d", maxReadLines, end+1))
	}
	// Keep within the size cap.
	for end > start {
		if text, _ := f.Lines(start, end); len(text) <= maxToolChars {
			break
		}
		end = start + (end-start)/2
		if len(notes) == 0 {
			notes = append(notes, fmt.Sprintf("truncated by size; read on from line %d", end+1))
		} else {
			notes[0] = fmt.Sprintf("truncated by size; read on from line %d", end+1)
		}
	}
	note := fmt.Sprintf("(file has %d lines)", n)
	var w strings.Builder
	if _, ok := tb.evidence(&w, p, f, start, end, "", note); !ok {
		return "", "", fmt.Errorf("%s: lines %d-%d not readable", p, start, end)
	}
	for _, s := range notes {
		w.WriteString("(" + s + ")\n")
	}
	return w.String(), fmt.Sprintf("%s:%d-%d", p, start, end), nil
}

func (tb *Box) listFiles(ctx context.Context, a Args) (string, string, error) {
	glob, err := a.str("glob", true)
	if err != nil {
		return "", "", err
	}
	files, err := tb.src.Files(glob)
	if err != nil {
		return "", "", fmt.Errorf("list_files %q: %w", glob, err)
	}
	if len(files) == 0 {
		return fmt.Sprintf("no file matches %q (\"**\" crosses folders: try \"**/%s\")", glob, path.Base(glob)), "0 files", nil
	}
	var w strings.Builder
	for i, f := range files {
		if i == maxListFiles || w.Len() > maxToolChars {
			fmt.Fprintf(&w, "… and %d more: narrow the glob\n", len(files)-i)
			break
		}
		w.WriteString(f + "\n")
	}
	return w.String(), fmt.Sprintf("%d files", len(files)), nil
}

func (tb *Box) findSymbol(ctx context.Context, a Args) (string, string, error) {
	name, err := a.str("name", true)
	if err != nil {
		return "", "", err
	}
	syms := tb.src.Symbols(name, maxSymbols)
	if len(syms) == 0 {
		return fmt.Sprintf("no symbol named like %q; try search_code or grep", name), "0 symbols", nil
	}
	var w strings.Builder
	for _, s := range syms {
		tb.symbolLine(&w, s, true)
		if w.Len() > maxToolChars {
			break
		}
	}
	return w.String(), fmt.Sprintf("%d symbols", len(syms)), nil
}

// symbolLine registers a symbol's declaration line as evidence and writes
// "[n] path:line-end kind Container.Name: signature".
func (tb *Box) symbolLine(w *strings.Builder, s index.Symbol, withPath bool) {
	name := s.QualifiedName()
	f, err := tb.File(s.Path)
	if err != nil {
		return
	}
	text, ok := f.Lines(s.Line, s.Line)
	if !ok {
		return
	}
	id := tb.reg.Add(s.Path, s.Line, s.Line, text, name)
	sig := s.Signature
	if sig == "" {
		sig = strings.TrimSpace(strings.TrimSuffix(text, "\n"))
	}
	loc := fmt.Sprintf("%d-%d", s.Line, max(s.EndLine, s.Line))
	if withPath {
		loc = s.Path + ":" + loc
	}
	fmt.Fprintf(w, "[%d] %s %s %s: %s\n", id, loc, s.Kind, name, CutLine(sig))
}

func (tb *Box) outline(ctx context.Context, a Args) (string, string, error) {
	raw, err := a.str("path", true)
	if err != nil {
		return "", "", err
	}
	p, err := cleanPath(raw)
	if err != nil {
		return "", "", err
	}
	syms, err := tb.src.Outline(p)
	if err != nil {
		return "", "", tb.notFound(p, err)
	}
	f, err := tb.File(p)
	if err != nil {
		return "", "", tb.notFound(p, err)
	}
	var w strings.Builder
	fmt.Fprintf(&w, "%s (%d lines, %d symbols)\n", p, f.Count(), len(syms))
	for i, s := range syms {
		if i == maxOutlineItems || w.Len() > maxToolChars {
			fmt.Fprintf(&w, "… and %d more symbols: read_file the part you need\n", len(syms)-i)
			break
		}
		tb.symbolLine(&w, s, false)
	}
	return w.String(), fmt.Sprintf("%d symbols", len(syms)), nil
}

// Specs describes the tools to the model.
func Specs() []model.ToolSpec {
	out := make([]model.ToolSpec, 0, len(tools))
	for _, t := range tools {
		spec := model.ToolSpec{Name: t.name, Description: t.desc}
		for _, p := range t.params {
			spec.Params = append(spec.Params, model.ToolParam{Name: p.name, Type: p.typ, Description: p.desc, Required: p.required})
		}
		out = append(out, spec)
	}
	return out
}

// Step is one tool call the agent made.
type Step struct {
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"args"`
	Summary string         `json:"summary"`
	MS      float64        `json:"ms"`
}

// SymbolName is the bare name of a qualified label ("Server.ServeHTTP").
func SymbolName(label string) string {
	if i := strings.LastIndexByte(label, '.'); i >= 0 {
		return label[i+1:]
	}
	return label
}
