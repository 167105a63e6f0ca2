// Package buffer is an open document's bytes and its LSP positions: the
// immutable chunked text of a buffer the editor has open (Text), the
// didChange changes as the client sends them (Change, WireRange,
// WirePosition) and their application in UTF-16 positions
// (ApplyChanges, giving the byte Edits that kept citations replay), and
// the conversions between byte offsets and LSP positions (PositionOf,
// OffsetOf, LineStart: lines end at "\n", "\r\n" or a lone "\r",
// characters count UTF-16 code units). It knows nothing of the server,
// the open documents' map or citations.
//
// Concurrency: a Text is never changed once made (an edit makes a new
// one, sharing the chunks it leaves alone), so a Text and its Bytes are
// safe to read from any number of goroutines; the functions hold no
// state.
package buffer
