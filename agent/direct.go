package agent

import (
	"context"
	"fmt"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// Tools describes the agent's read-only tools as the model sees them:
// names, descriptions and arguments. Other front ends (the MCP server)
// offer the same tools under the same names.
func Tools() []model.ToolSpec { return toolSpecs() }

// ToolResult is one tool run outside an Ask.
type ToolResult struct {
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
func RunTool(ctx context.Context, snap *index.Snapshot, name string, a map[string]any) (res ToolResult, err error) {
	return runOne(ctx, snap, name, a)
}

func runOne(ctx context.Context, src source, name string, a map[string]any) (res ToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s failed inside askls (%v); try another call", name, p)
		}
	}()
	t, ok := toolByName(name)
	if !ok {
		return res, fmt.Errorf("there is no tool %q; the tools are %v", name, toolNames())
	}
	if a == nil {
		a = map[string]any{}
	}
	reg := citations.NewRegistry()
	text, summary, err := t.run(newToolbox(src, reg), ctx, args(a))
	if err != nil {
		return res, err
	}
	res = ToolResult{Text: text, Summary: summary}
	for _, ev := range reg.All() {
		res.Evidence = append(res.Evidence, Evidence{N: ev.ID, Path: ev.Path, Start: ev.Start, End: ev.End, Symbol: ev.Symbol})
	}
	return res, nil
}
