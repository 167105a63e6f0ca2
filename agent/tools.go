package agent

import (
	"context"

	"github.com/askls/askls/agent/model"
	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/index"
)

// The tools as the front ends reach them; package tools owns them.
type (
	// Step is one tool call the agent made.
	Step = tools.Step
	// ToolResult is one tool run outside an Ask.
	ToolResult = tools.Result
	// Evidence is a range of lines a tool returned.
	Evidence = tools.Evidence
	// RefQuery, Reference and References are FindReferences's.
	RefQuery   = tools.RefQuery
	Reference  = tools.Reference
	References = tools.References
	// Implementation and Implementations are FindImplementations's.
	Implementation  = tools.Implementation
	Implementations = tools.Implementations
)

// Tools describes the agent's read-only tools as the model sees them:
// names, descriptions and arguments. Other front ends (the MCP server)
// offer the same tools under the same names.
func Tools() []model.ToolSpec { return tools.Specs() }

// RunTool runs one tool on snap with the arguments a model would send
// (tools.Run).
func RunTool(ctx context.Context, snap *index.Snapshot, name string, a map[string]any) (ToolResult, error) {
	return tools.Run(ctx, snap, name, a)
}

// FindReferences lists every occurrence of a name in the code of snap
// (tools.FindReferences).
func FindReferences(ctx context.Context, snap *index.Snapshot, q RefQuery) (References, error) {
	return tools.FindReferences(ctx, snap, q)
}

// RefQueryAt is the reference query for name written at line of file p
// (tools.RefQueryAt).
func RefQueryAt(snap *index.Snapshot, name, p string, line int) RefQuery {
	return tools.RefQueryAt(snap, name, p, line)
}

// FindImplementations lists the types that implement or extend def
// (tools.FindImplementations).
func FindImplementations(ctx context.Context, snap *index.Snapshot, def index.Symbol, tests bool) (Implementations, error) {
	return tools.FindImplementations(ctx, snap, def, tests)
}

// ImplementableAt is the interface, trait or class that name written at
// line of file p names (tools.ImplementableAt).
func ImplementableAt(snap *index.Snapshot, name, p string, line int) (index.Symbol, bool) {
	return tools.ImplementableAt(snap, name, p, line)
}
