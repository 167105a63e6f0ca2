//go:build !unix

package ollamatest

import (
	"os"
	"os/exec"
)

// ownProcessGroup does nothing where there are no process groups; the
// real-Ollama harness is meant for Unix (see docs/testing.md).
func ownProcessGroup(cmd *exec.Cmd) {}

// terminate stops p; without signals it is killed at once.
func terminate(p *os.Process) {
	_ = p.Kill()
}

// killGroup kills p (its children are not reached without process groups).
func killGroup(p *os.Process) {
	_ = p.Kill()
}
