package child

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Start starts cmd with its standard input and output connected to pipes
// (its Dir, Env and Stderr are the caller's) and returns the ends the
// caller reads the server's output from and writes its input to. The
// caller calls cmd.Wait and closes both ends.
func Start(cmd *exec.Cmd) (out io.ReadCloser, in io.WriteCloser, err error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close() // the child's ends: it holds its own copies now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	return outR, inW, nil
}
