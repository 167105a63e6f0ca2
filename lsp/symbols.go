package lsp

import (
	"context"
	"encoding/json"

	"github.com/askls/askls/workspace"
	"go.lsp.dev/protocol"
)

// maxSymbols bounds a workspace/symbol answer.
const maxSymbols = 100

// workspaceSymbol answers from the index's symbol table (exact name, then
// prefix, then substring, best first). Positions are the start of the
// symbol's line: reading every file to find columns would make the answer
// slow, and editors jump to the line.
func (s *server) workspaceSymbol(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		Query string `json:"query"`
	}]("workspace/symbol", raw)
	if err != nil {
		return nil, err
	}
	out := []protocol.SymbolInformation{}
	ix := s.ws.Current()
	if ix == nil {
		return out, nil // still opening: nothing yet, never wait
	}
	snap := ix.Snapshot()
	release()
	for _, sym := range snap.Symbols(p.Query, maxSymbols) {
		abs, err := ix.Abs(sym.Path)
		if err != nil {
			continue
		}
		line := uint32(max(sym.Line-1, 0))
		end := uint32(max(sym.EndLine-1, int(line)))
		out = append(out, protocol.SymbolInformation{
			Name:          sym.Name,
			Kind:          symbolKind(sym.Kind),
			ContainerName: sym.Container,
			Location: protocol.Location{
				URI: protocol.DocumentURI(workspace.FileURI(abs)),
				Range: protocol.Range{
					Start: protocol.Position{Line: line},
					End:   protocol.Position{Line: end},
				},
			},
		})
	}
	return out, nil
}

func symbolKind(k string) protocol.SymbolKind {
	switch k {
	case "func", "function", "test": // test: a function that is test code by its attributes (Rust)
		return protocol.SymbolKindFunction
	case "method":
		return protocol.SymbolKindMethod
	case "type", "class":
		return protocol.SymbolKindClass
	case "struct":
		return protocol.SymbolKindStruct
	case "interface", "trait":
		return protocol.SymbolKindInterface
	case "var", "variable", "let":
		return protocol.SymbolKindVariable
	case "const", "constant":
		return protocol.SymbolKindConstant
	case "field":
		return protocol.SymbolKindField
	case "module", "package", "mod":
		return protocol.SymbolKindModule
	case "enum":
		return protocol.SymbolKindEnum
	case "constructor":
		return protocol.SymbolKindConstructor
	case "property":
		return protocol.SymbolKindProperty
	case "namespace":
		return protocol.SymbolKindNamespace
	}
	return protocol.SymbolKindObject
}
