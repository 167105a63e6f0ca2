package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/askls/askls/citations"
)

// Positions at the edge: LSP counts lines from 0 and characters in UTF-16
// code units; inside askls everything is a byte offset. Line breaks are
// "\n", "\r\n" or "\r", as the protocol says. The conversions are
// citations' (one implementation for edits and for citations' Locations).

// offsetOf returns the byte offset of p in content; exact is false when it
// was clamped (see citations.OffsetExact).
func offsetOf(content []byte, p protocol.Position) (off int, exact bool) {
	return citations.OffsetExact(content, p)
}

// positionOf returns the LSP position of byte offset off (clamped).
func positionOf(content []byte, off int) protocol.Position {
	return citations.Position(content, off)
}
