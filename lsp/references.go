package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/lsp/buffer"
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
	at, ok := s.identUnderCursor(p.TextDocument.URI, p.Position, release)
	if !ok {
		return out, nil
	}
	ix, snap, path, name, written := at.ix, at.snap, at.path, at.name, at.written
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
		out = append(out, nameLocation(abs, r.Line, r.Text, r.Col, name))
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
	at, ok := s.identUnderCursor(p.TextDocument.URI, p.Position, release)
	if !ok {
		return out, nil
	}
	ix, snap, name := at.ix, at.snap, at.written
	def, ok := agent.ImplementableAt(snap, name, at.path, int(p.Position.Line)+1)
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
		out = append(out, nameLocation(abs, im.Line, im.Text, im.Col, im.Type))
	}
	return out, nil
}

// cursorIdent is the identifier under a cursor, with what a request
// needs to look it up: the index and its snapshot, the file's index path,
// the name, and the name as written (qualified: "context.WithCancel").
type cursorIdent struct {
	ix                  *index.Index
	snap                *index.Snapshot
	path, name, written string
}

// identUnderCursor finds the identifier at pos in the document u (the
// editor's text when it is open, else the indexed file) and releases the
// request queue once the snapshot is taken; ok is false while the index
// is still opening (never wait), for a file outside the roots or when no
// identifier is there.
func (s *server) identUnderCursor(u protocol.DocumentURI, pos protocol.Position, release func()) (cursorIdent, bool) {
	ix := s.ws.Current()
	if ix == nil {
		return cursorIdent{}, false
	}
	snap := ix.Snapshot()
	release()
	path, ok := s.indexPath(ix, u)
	if !ok {
		return cursorIdent{}, false
	}
	var content []byte
	if doc, open := s.docs.get(u); open {
		content = doc.text.Bytes()
	} else {
		var err error
		if content, err = snap.Content(path); err != nil {
			return cursorIdent{}, false
		}
	}
	off, _ := buffer.OffsetOf(content, pos)
	name, qual := workspace.IdentAt(content, off)
	if name == "" {
		return cursorIdent{}, false
	}
	written := name
	if qual != "" {
		written = qual + "." + name
	}
	return cursorIdent{ix: ix, snap: snap, path: path, name: name, written: written}, true
}

// nameLocation is the Location of name at byte col of line (1-based) of
// text, in the file at abs, in UTF-16 columns.
func nameLocation(abs string, line int, text string, col int, name string) protocol.Location {
	start := utf16Len(text[:min(col, len(text))])
	return protocol.Location{
		URI: protocol.DocumentURI(workspace.FileURI(abs)),
		Range: protocol.Range{
			Start: protocol.Position{Line: uint32(line - 1), Character: uint32(start)},
			End:   protocol.Position{Line: uint32(line - 1), Character: uint32(start + utf16Len(name))},
		},
	}
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
