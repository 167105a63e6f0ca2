//go:build unix

package ollamatest

import (
	"os"
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a process group of its own, led by it.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminate asks p to stop (SIGTERM).
func terminate(p *os.Process) {
	_ = p.Signal(syscall.SIGTERM)
}

// killGroup kills p's process group: p and the runners it started.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
