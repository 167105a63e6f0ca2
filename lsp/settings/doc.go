// Package settings is what a client of the language server may set
// (initializationOptions, workspace/didChangeConfiguration; the Settings
// of docs/protocol.md): the defaults, the merge of a settings object over
// the current ones (flat or under "askls", a bad value reported and the
// rest applied), and the agent configuration they give over the
// command's.
//
// Concurrency: a Config is a plain value; the functions are pure.
package settings
