package index

import (
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/index/walk"
)

// ReadCapped reads the regular file at abs, at most max bytes, for the
// packages that read workspace files themselves (see walk.ReadCapped: FIFOs,
// devices and special file systems are refused, a longer file is an
// error whatever size the system reports).
func ReadCapped(abs string, max int64) ([]byte, error) {
	data, _, err := walk.ReadCapped(abs, max)
	return data, err
}

// readSpan is readSpanRaw with the secrets masked (secret.Redact): what a search
// returns, and every text read for a user or a model, goes through it.
// The rerank reads its candidates raw (chunkTexts): their text is only
// scored, and page masks what it returns.
func readSpan(r *root, rel string, size, mtime int64, off, n int) ([]byte, bool) {
	b, ok := readSpanRaw(r, rel, size, mtime, off, n)
	if !ok {
		return nil, false
	}
	return secret.Redact(b), true
}
