// Package secretcorpus plants a workspace of fake credentials in every
// format askls keeps out or masks (testdata/secrets.txtar: secret file
// names, private keys on lines and inside JSON strings, cloud keys in their
// env, JSON, CSV and INI forms, token formats), and checks text for any of
// them. The tests of index, agent, mcp and cmd/askls drive their routes
// over it; a leak is a planted value found in what a route returns.
//
// It keeps no state and is safe for concurrent use.
package secretcorpus
