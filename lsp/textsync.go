package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/index"
	"github.com/askls/askls/lsp/buffer"
	"github.com/askls/askls/workspace"
)

// Text synchronisation. Each handler holds editMu while it changes the
// overlay, hands the new content to the index (Update never blocks) and
// moves the citation anchors, so the three never disagree.

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int32  `json:"version"`
	Text       string `json:"text"`
}

type versionedDoc struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

type docID struct {
	URI string `json:"uri"`
}

// canonURI normalises a file URI so that differently escaped spellings of
// one file are one key.
func canonURI(u string) protocol.DocumentURI {
	return protocol.DocumentURI(workspace.CanonURI(u))
}

// indexPath maps a document URI to its index path; ok is false outside
// every root or for non-file URIs.
func (s *server) indexPath(ix *index.Index, u protocol.DocumentURI) (string, bool) {
	abs, err := workspace.URIPath(string(u))
	if err != nil {
		return "", false
	}
	return ix.Rel(abs)
}

// maxDiskRead caps what the server reads of a file on disk to move its
// citations: the index's size limit (a larger file is not cited).
func (s *server) maxDiskRead() int64 {
	if max := s.config().MaxFileBytes; max > 0 {
		return max
	}
	return 1 << 20
}

func (s *server) didOpen(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		TextDocument textDocumentItem `json:"textDocument"`
	}]("textDocument/didOpen", raw)
	if err != nil {
		return nil, err
	}
	if p.TextDocument.URI == "" {
		return nil, invalidParams("textDocument/didOpen: textDocument.uri is missing")
	}
	u := canonURI(p.TextDocument.URI)
	content := buffer.New([]byte(p.TextDocument.Text))
	if max := s.config().MaxFileBytes; max > 0 && int64(content.Len()) > max {
		s.log.Info("opened a file larger than maxFileBytes; it is tracked but the index may skip it", "uri", u, "bytes", content.Len())
	}

	s.editMu.Lock()
	s.docs.set(u, p.TextDocument.Version, content)
	s.pushToIndex(u, content)
	moved := s.answers.resync(u, content.Bytes())
	s.editMu.Unlock()
	if moved {
		s.citationsChanged(ctx, []protocol.DocumentURI{u})
	} else {
		s.publishDiagnostics(ctx, u)
	}
	return nil, nil
}

func (s *server) didChange(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		TextDocument   versionedDoc    `json:"textDocument"`
		ContentChanges []buffer.Change `json:"contentChanges"`
	}]("textDocument/didChange", raw)
	if err != nil {
		// Still say so for the document, if it can be named.
		if d, derr := decode[struct {
			TextDocument docID `json:"textDocument"`
		}]("textDocument/didChange", raw); derr == nil && d.TextDocument.URI != "" {
			s.rejectEdit(ctx, canonURI(d.TextDocument.URI), err)
		}
		return nil, err
	}
	u := canonURI(p.TextDocument.URI)

	s.editMu.Lock()
	doc, ok := s.docs.get(u)
	if !ok {
		s.editMu.Unlock()
		return nil, fmt.Errorf("textDocument/didChange for %s, which is not open: ignored (send didOpen first)", u)
	}
	if p.TextDocument.Version != 0 && p.TextDocument.Version <= doc.version {
		s.log.Warn("didChange version did not increase; applying the change anyway", "uri", u,
			"had", doc.version, "got", p.TextDocument.Version)
	}
	if doc.outOfSync && (len(p.ContentChanges) == 0 || p.ContentChanges[0].Range != nil) {
		s.editMu.Unlock()
		return nil, fmt.Errorf("textDocument/didChange for %s: refused, an earlier edit was rejected; waiting for the full text (reopen the file)", u)
	}
	content, edits, warnings, err := buffer.ApplyChanges(doc.text, p.ContentChanges)
	if err != nil {
		s.editMu.Unlock()
		s.rejectEdit(ctx, u, err)
		return nil, fmt.Errorf("textDocument/didChange for %s rejected: %w", u, err)
	}
	for _, w := range warnings {
		s.log.Warn("didChange", "uri", u, "problem", w)
	}
	s.docs.set(u, p.TextDocument.Version, content)
	s.pushToIndex(u, content)
	moved := s.answers.applyEdits(u, edits, content)
	s.editMu.Unlock()

	if moved {
		s.citationsChanged(ctx, []protocol.DocumentURI{u})
	}
	return nil, nil
}

// rejectEdit tells the user, once per document until it is in step
// again, that an edit was not applied: askls's copy and the editor's
// buffer may now differ, and reopening the file mends it.
func (s *server) rejectEdit(ctx context.Context, u protocol.DocumentURI, why error) {
	s.editMu.Lock()
	first := s.docs.markOutOfSync(u)
	s.editMu.Unlock()
	if !first {
		return
	}
	s.notify(ctx, "window/showMessage", map[string]any{"type": 1,
		"message": fmt.Sprintf("askls rejected an edit to %s (%v); none of its changes were applied. Close and reopen the file so that askls has its text again.", u, why)})
}

// pushToIndex hands an open buffer to the workspace's index, which joins
// its chunks only when it is within the size limit. Caller holds editMu.
func (s *server) pushToIndex(u protocol.DocumentURI, content *buffer.Text) {
	abs, err := workspace.URIPath(string(u))
	if err != nil {
		s.log.Debug("document is not a file; not indexed", "uri", u)
		return
	}
	s.ws.SetBufferText(abs, content)
}

func (s *server) didSave(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		TextDocument docID `json:"textDocument"`
	}]("textDocument/didSave", raw)
	if err != nil {
		return nil, err
	}
	if abs, err := workspace.URIPath(p.TextDocument.URI); err == nil {
		s.ws.Changed(abs)
	}
	return nil, nil
}

func (s *server) didClose(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		TextDocument docID `json:"textDocument"`
	}]("textDocument/didClose", raw)
	if err != nil {
		return nil, err
	}
	u := canonURI(p.TextDocument.URI)
	s.editMu.Lock()
	if !s.docs.remove(u) {
		s.editMu.Unlock()
		return nil, fmt.Errorf("textDocument/didClose for %s, which is not open: ignored", u)
	}
	moved := false
	// The file falls back to its disk content; citations follow it there.
	if abs, err := workspace.URIPath(string(u)); err == nil {
		s.ws.CloseBuffer(abs)
		if disk, err := index.ReadCapped(abs, s.maxDiskRead()); err == nil {
			moved = s.answers.resync(u, disk)
		} else {
			moved = s.answers.markStale(u)
		}
	}
	s.editMu.Unlock()
	if moved {
		s.citationsChanged(ctx, []protocol.DocumentURI{u})
	}
	return nil, nil
}

func (s *server) didChangeWatchedFiles(ctx context.Context, raw json.RawMessage, release func()) (any, error) {
	p, err := decode[struct {
		Changes []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
	}]("workspace/didChangeWatchedFiles", raw)
	if err != nil {
		return nil, err
	}
	var changed []protocol.DocumentURI
	for _, ch := range p.Changes {
		u := canonURI(ch.URI)
		abs, err := workspace.URIPath(string(u))
		if err != nil {
			continue
		}
		s.ws.Changed(abs)
		s.editMu.Lock()
		if _, open := s.docs.get(u); !open { // an open buffer stays the truth
			moved := false
			if disk, err := index.ReadCapped(abs, s.maxDiskRead()); err == nil {
				moved = s.answers.resync(u, disk)
			} else {
				moved = s.answers.markStale(u)
			}
			if moved {
				changed = append(changed, u)
			}
		}
		s.editMu.Unlock()
	}
	if len(changed) > 0 {
		s.citationsChanged(ctx, changed)
	}
	return nil, nil
}
