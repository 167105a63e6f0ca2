package lsp

import "github.com/askls/askls/lsp/settings"

// Config is what a client may set (docs/protocol.md, Settings).
type Config = settings.Config

// DefaultConfig is the configuration before the client says anything.
func DefaultConfig() Config { return settings.Default() }
