//go:build unix

package lsp

import (
	"errors"
	"syscall"
)

// processGone reports whether no process has this pid (signal 0 checks
// without sending anything).
func processGone(pid int) bool {
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
