package tools

import (
	"context"
	"fmt"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// ToolResult is one tool run outside an Ask.
type Result struct {
	// Text is what the model would see: "[n] path:start-end" headers and
	// numbered lines, within the tools' size caps.
	Text string
	// Summary is the one-line summary of the step ("8 hits").
	Summary string
	// Evidence is what Text shows, numbered as in Text.
	Evidence []Evidence
}

// Evidence is a range of lines a tool returned.
type Evidence struct {
	N      int    `json:"n"`
	Path   string `json:"path"`
	Start  int    `json:"startLine"`
	End    int    `json:"endLine"`
	Symbol string `json:"symbol,omitempty"`
}

// RunTool runs one tool on snap with the arguments a model would send,
// with the same confinement, caps and error messages as in an Ask. A bad
// argument, an unknown tool or a panic inside the tool is an error whose
// message says what to change; it never takes the caller down.
func Run(ctx context.Context, snap *index.Snapshot, name string, a map[string]any) (res Result, err error) {
	return runOne(ctx, snap, name, a)
}

func runOne(ctx context.Context, src Source, name string, a map[string]any) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s failed inside askls (%v); try another call", name, p)
		}
	}()
	t, ok := toolByName(name)
	if !ok {
		return res, fmt.Errorf("there is no tool %q; the tools are %v", name, Names())
	}
	if a == nil {
		a = map[string]any{}
	}
	reg := citations.NewRegistry()
	text, summary, err := t.run(NewBox(src, reg), ctx, Args(a))
	if err != nil {
		return res, err
	}
	res = Result{Text: text, Summary: summary}
	for _, ev := range reg.All() {
		res.Evidence = append(res.Evidence, Evidence{N: ev.ID, Path: ev.Path, Start: ev.Start, End: ev.End, Symbol: ev.Symbol})
	}
	return res, nil
}
