//go:build unix

package answerdoc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// processGone reports whether no process has this pid (signal 0 checks
// without sending anything), or it is a zombie: a server killed after
// exit whose parent never reaped it (an editor that quit, under an init
// that does not reap) still answers signal 0, but will never remove its
// answer folder.
func processGone(pid int) bool {
	if pid <= 0 {
		return false
	}
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	return isZombie(pid)
}

// isZombie reads the process state from /proc/PID/stat ("pid (comm) S
// …"); false where there is no /proc (macOS, the BSDs).
func isZombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')') // comm may hold spaces and parentheses
	return i >= 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X')
}
