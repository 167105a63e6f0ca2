package index

import (
	"log/slog"

	"github.com/askls/askls/index/secret"
)

// Redact returns text with its secrets masked, for text that did not
// come through the index (a model's answer, a log line); see
// secret.RedactString.
func Redact(text string) string { return secret.RedactString(text) }

// RedactHandler wraps h so that every log line is masked as Redact masks
// text (secret.Handler). Loggers that write to stderr, a file or an
// editor's log wrap their handler with it.
func RedactHandler(h slog.Handler) slog.Handler { return secret.Handler(h) }
