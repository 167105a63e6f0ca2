package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/workspace"
)

// references answers textDocument/references from the index: every
// occurrence in code (not comments or strings) of the identifier under
// the cursor across the workspace, tests included (agent.FindReferences).
// A Go package-level name is matched qualified outside its package. The
// declaration is listed when the client asks for it.
func (s *server) references(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		TextDocument struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"textDocument"`
		Position protocol.Position `json:"position"`
		Context  struct {
			IncludeDeclaration bool `json:"includeDeclaration"`
		} `json:"context"`
	}]("textDocument/references", raw)
	if err != nil {
		return nil, err
	}
	out := []protocol.Location{}
	ix := s.ws.Current()
	if ix == nil {
		return out, nil // still opening: nothing yet, never wait
	}
	snap := ix.Snapshot()
	release()
	path, ok := s.indexPath(ix, p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	var content []byte
	if doc, open := s.docs.get(p.TextDocument.URI); open {
		content = doc.content
	} else if content, err = snap.Content(path); err != nil {
		return out, nil
	}
	off, _ := offsetOf(content, p.Position)
	name, qual := identAt(content, off)
	if name == "" {
		return out, nil
	}
	written := name
	if qual != "" {
		written = qual + "." + name
	}
	q := agent.RefQueryAt(snap, written, path, int(p.Position.Line)+1)
	q.Tests = true
	q.Skip = nil // recursive calls in the definition are references too
	refs, err := agent.FindReferences(ctx, snap, q)
	if err != nil {
		s.log.Debug("references failed", "name", written, "err", err)
		return out, nil
	}
	for _, r := range refs.Sites {
		if !p.Context.IncludeDeclaration && r.Path == q.DeclPath && r.Line == q.DeclLine {
			continue
		}
		abs, err := ix.Abs(r.Path)
		if err != nil {
			continue
		}
		start := utf16Len(r.Text[:r.Col])
		out = append(out, protocol.Location{
			URI: protocol.DocumentURI(workspace.FileURI(abs)),
			Range: protocol.Range{
				Start: protocol.Position{Line: uint32(r.Line - 1), Character: uint32(start)},
				End:   protocol.Position{Line: uint32(r.Line - 1), Character: uint32(start + utf16Len(name))},
			},
		})
	}
	return out, nil
}

// implementation answers textDocument/implementation from the index: the
// types that implement the interface or trait, or extend the class,
// named by the identifier under the cursor (agent.FindImplementations),
// tests included, each at its name in its declaration.
func (s *server) implementation(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[protocol.TextDocumentPositionParams]("textDocument/implementation", raw)
	if err != nil {
		return nil, err
	}
	out := []protocol.Location{}
	ix := s.ws.Current()
	if ix == nil {
		return out, nil // still opening: nothing yet, never wait
	}
	snap := ix.Snapshot()
	release()
	path, ok := s.indexPath(ix, p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	var content []byte
	if doc, open := s.docs.get(p.TextDocument.URI); open {
		content = doc.content
	} else if content, err = snap.Content(path); err != nil {
		return out, nil
	}
	off, _ := offsetOf(content, p.Position)
	name, qual := identAt(content, off)
	if name == "" {
		return out, nil
	}
	if qual != "" {
		name = qual + "." + name
	}
	def, ok := agent.ImplementableAt(snap, name, path, int(p.Position.Line)+1)
	if !ok {
		return out, nil
	}
	ims, err := agent.FindImplementations(ctx, snap, def, true)
	if err != nil {
		s.log.Debug("implementation failed", "name", name, "err", err)
		return out, nil
	}
	for _, im := range ims.Types {
		abs, err := ix.Abs(im.Path)
		if err != nil {
			continue
		}
		start := utf16Len(im.Text[:min(im.Col, len(im.Text))])
		out = append(out, protocol.Location{
			URI: protocol.DocumentURI(workspace.FileURI(abs)),
			Range: protocol.Range{
				Start: protocol.Position{Line: uint32(im.Line - 1), Character: uint32(start)},
				End:   protocol.Position{Line: uint32(im.Line - 1), Character: uint32(start + utf16Len(im.Type))},
			},
		})
	}
	return out, nil
}

// identAt returns the identifier around byte off of content and the
// identifier before it when a '.' joins them ("context" for
// context.WithCancel); "" when off is not in an identifier.
func identAt(content []byte, off int) (name, qual string) {
	isIdent := func(c byte) bool {
		return c == '_' || c == '$' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	if off > len(content) {
		return "", ""
	}
	start, end := off, off
	for start > 0 && isIdent(content[start-1]) {
		start--
	}
	for end < len(content) && isIdent(content[end]) {
		end++
	}
	if start == end || '0' <= content[start] && content[start] <= '9' {
		return "", ""
	}
	name = string(content[start:end])
	if start > 1 && content[start-1] == '.' {
		qs := start - 1
		for qs > 0 && isIdent(content[qs-1]) {
			qs--
		}
		qual = string(content[qs : start-1])
	}
	return name, qual
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
