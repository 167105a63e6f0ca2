package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/workspace"
)

// addTools offers the agent's tools under their own names and arguments,
// and ask.
func (s *Server) addTools() {
	for _, spec := range agent.Tools() {
		s.sdk.AddTool(&sdk.Tool{
			Name:        spec.Name,
			Description: spec.Description,
			InputSchema: spec.Schema(),
			Annotations: readOnly(spec.Name),
		}, s.toolHandler(spec.Name))
	}
	s.sdk.AddTool(&sdk.Tool{
		Name: "ask",
		Description: "Answer a question about the workspace's code. The answer cites every claim as [n], and the citations " +
			"(file, line range, symbol) follow it. Without a usable model it answers in retrieval mode: ranked, cited code.",
		InputSchema: askSchema,
		Annotations: readOnly("ask"),
	}, s.ask)
}

func readOnly(name string) *sdk.ToolAnnotations {
	no := false
	return &sdk.ToolAnnotations{Title: name, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}
}

var askSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"question": map[string]any{"type": "string", "description": "the question, e.g. \"how does the cache expire entries?\""},
		"path":     map[string]any{"type": "string", "description": "optional: the file the question is about, relative to the workspace root"},
		"line":     map[string]any{"type": "integer", "description": "optional: the line in path (1-based) the question is about"},
	},
	"required": []string{"question"},
}

// toolError is a tool result the client's model can act on.
func toolError(format string, a ...any) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "error: " + fmt.Sprintf(format, a...)}}}
}

// arguments decodes a call's arguments: a JSON object or nothing.
func arguments(req *sdk.CallToolRequest) (map[string]any, error) {
	m := map[string]any{}
	raw := req.Params.Arguments
	if len(raw) == 0 || string(raw) == "null" {
		return m, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("the arguments must be a JSON object: %v", err)
	}
	return m, nil
}

// evidenceOut is the structured content of a tool result.
type evidenceOut struct {
	Summary  string           `json:"summary"`
	Evidence []agent.Evidence `json:"evidence"`
}

func (s *Server) toolHandler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("askls mcp: tool panicked", "tool", name, "panic", p)
				res, err = toolError("%s failed inside askls (%v); try another call", name, p), nil
			}
		}()
		a, err := arguments(req)
		if err != nil {
			return toolError("%v", err), nil
		}
		ix, err := s.index(ctx, req.Session)
		if err != nil {
			return toolError("%v", err), nil
		}
		out, err := agent.RunTool(ctx, ix.Snapshot(), name, a)
		if err != nil {
			return toolError("%v", err), nil
		}
		ev := out.Evidence
		if ev == nil {
			ev = []agent.Evidence{}
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: out.Text}},
			StructuredContent: evidenceOut{Summary: out.Summary, Evidence: ev},
		}, nil
	}
}

// askOut is ask's structured content: the agent's result, with a file
// URI per citation.
type askOut struct {
	*agent.Result
	URIs []string `json:"citationUris"`
}

func (s *Server) ask(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("askls mcp: ask panicked", "panic", p)
			res, err = toolError("ask failed inside askls (%v)", p), nil
		}
	}()
	a, err := arguments(req)
	if err != nil {
		return toolError("%v", err), nil
	}
	q, _ := a["question"].(string)
	if strings.TrimSpace(q) == "" {
		return toolError("missing argument \"question\" (a non-empty string)"), nil
	}
	p, _ := a["path"].(string)
	if v, ok := a["path"]; ok && v != nil {
		if _, isString := v.(string); !isString {
			return toolError("argument \"path\" must be a string"), nil
		}
	}
	line := 0
	if v, ok := a["line"]; ok && v != nil {
		f, isNum := v.(float64)
		if !isNum || f < 0 || f != float64(int(f)) {
			return toolError("argument \"line\" must be a positive integer"), nil
		}
		line = int(f)
	}
	if _, err := s.index(ctx, req.Session); err != nil {
		return toolError("%v", err), nil
	}
	if p != "" {
		given := strings.TrimPrefix(filepath.ToSlash(p), "./")
		if p, _, err = s.ws.Locate(ctx, p); err != nil {
			return toolError("path %q: no such file in the workspace (give it relative to the root, as search_code prints it)", given), nil
		}
	} else if line != 0 {
		return toolError("argument \"line\" needs \"path\" (the file the line is in)"), nil
	}
	asked, err := s.ws.Prepare(ctx, workspace.Question{Text: q, File: p, Line: line})
	if err != nil {
		return toolError("%v", err), nil
	}
	ans, err := asked.Run(ctx, s.agent, workspace.Turn{}, progressEvents(ctx, req))
	if err != nil {
		return toolError("%v", err), nil
	}
	return askResult(ans), nil
}

// askResult is ask's result: the answer with a citation line each, and
// the agent's result with a file URI per citation as structured content.
func askResult(ans *workspace.Answer) *sdk.CallToolResult {
	r := ans.Result
	out := askOut{Result: r}
	var b strings.Builder
	b.WriteString(r.Answer)
	if len(r.Citations) > 0 {
		b.WriteString("\n\nCitations:\n")
	}
	for _, c := range r.Citations {
		uri := ""
		if abs, err := ans.Index.Abs(c.Path); err == nil {
			uri = workspace.FileURI(abs)
		}
		out.URIs = append(out.URIs, uri)
		fmt.Fprintf(&b, "[%d] %s:%d-%d", c.N, c.Path, c.Start, c.End)
		if c.Symbol != "" {
			b.WriteString(" " + c.Symbol)
		}
		b.WriteString("\n")
	}
	if r.Notice != "" {
		fmt.Fprintf(&b, "\n(note: %s)\n", r.Notice)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}, StructuredContent: out}
}

// progressEvents reports each tool call of an answer as an MCP progress
// notification when the client asked for progress (a progress token):
// clients that reset their request timeout on progress then wait for a
// slow model instead of giving up.
func progressEvents(ctx context.Context, req *sdk.CallToolRequest) agent.Events {
	tok := req.Params.GetProgressToken()
	if tok == nil || req.Session == nil {
		return agent.Events{}
	}
	n := 0
	return agent.Events{Step: func(st agent.Step) {
		n++
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
			ProgressToken: tok, Progress: float64(n), Message: fmt.Sprintf("%s: %s", st.Tool, st.Summary),
		})
	}}
}
