package lsp

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// watchParent ends the server when the editor process (initialize's
// processId) is gone, as LSP asks, so that an orphaned server does not keep
// the index cache locked.
func (s *server) watchParent(pid int) {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		if !alive(pid) {
			s.log.Warn("the editor process is gone; stopping", "pid", pid)
			s.mu.Lock()
			s.parentGone = true
			s.mu.Unlock()
			s.exitOnce.Do(func() { close(s.exited) })
			return
		}
	}
}

func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
