package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/askls/askls/workspace"
)

// newFlagSet is a subcommand's flag set: errors go to stderr, and -h
// prints usage (the command line and what it does) before the flags.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage+"\n\nflags:")
		fs.PrintDefaults()
	}
	return fs
}

// askFlags are the flags of the commands that answer questions (ask,
// chat): the workspace, the model, --no-model, and the thread to ask in.
type askFlags struct {
	rf       rootFlags
	af       agentFlags
	threadID string
	cont     bool
}

func (f *askFlags) register(fs *flag.FlagSet) {
	f.rf.Register(fs)
	f.af.register(fs)
	fs.BoolVar(&f.af.noModel, "no-model", false, "retrieval mode only: never contact the model server")
	fs.StringVar(&f.threadID, "thread", "", "ask in thread `ID` (see askls threads); default: a new thread")
	fs.BoolVar(&f.cont, "continue", false, "ask in the workspace's most recent thread")
}

// openThread opens the thread store of ws and the thread that --thread or
// --continue name (a new one when neither does); both at once is a usage
// error of cmd.
func (f askFlags) openThread(ws *workspace.Workspace, cmd string, stderr io.Writer) (workspace.Turn, error) {
	if f.threadID != "" && f.cont {
		return workspace.Turn{}, usageError(cmd + ": --thread and --continue: give one")
	}
	return openThread(ws, f.threadID, f.cont, stderr)
}
