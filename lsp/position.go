package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/lsp/buffer"
)

// Positions at the edge: LSP counts lines from 0 and characters in UTF-16
// code units; inside askls everything is a byte offset and a 1-based line
// (citations, index). The conversions between the two, for edits and for
// citations' Locations alike, are lsp/buffer's (PositionOf, OffsetOf).

// citationLocation resolves c to an LSP Location in the document uri whose current
// content is content. Columns count UTF-16 code units, as LSP requires. The
// range covers whole lines: from the start of line Start to the end of line
// End (its newline excluded), clamped to the content.
func citationLocation(c citations.Citation, uri string, content []byte) protocol.Location {
	start, end := c.StartByte, c.EndByte
	if start < 0 || end < start || end > len(content) || (start == 0 && end == 0 && c.Start > 1) {
		start, end = citations.LineSpan(content, c.Start, c.End)
	}
	return protocol.Location{
		URI: protocol.DocumentURI(uri),
		Range: protocol.Range{
			Start: buffer.PositionOf(content, start),
			End:   buffer.PositionOf(content, end),
		},
	}
}
