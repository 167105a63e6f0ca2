// Package secret owns what askls never shows: the names of secret files
// (IsName: .env, keys, credentials; the list is in rules.go), the content
// test for a private key in a file of no known language
// (LooksLikePrivateKey), and the masking of credentials in any text
// (Redact, in place and keeping every offset and line; RedactString; a
// slog Handler that masks every log line).
//
// It may import the standard library only. The walk skips what IsName
// names, and every read of a workspace file (index/walk's ReadCapped, the
// façade's spans and buffers) goes through Redact.
//
// Concurrency: every function is safe for concurrent use (the rules are
// built at init and only read); Redact writes only into the slice it is
// given.
package secret
