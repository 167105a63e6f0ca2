package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
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

// session opens what cmd (askls ask, askls chat) answers with: the
// workspace of the flags, opened and synced (a progress bar when progress
// is set), the thread of --thread or --continue, and the agent, logging
// warnings to stderr. The caller closes the workspace; on an error nothing
// stays open.
func (f askFlags) session(ctx context.Context, cmd string, progress bool, stderr io.Writer) (*workspace.Workspace, workspace.Turn, *agent.Agent, error) {
	logger := slog.New(index.RedactHandler(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	ws := newWorkspace(f.rf, progress)
	turn, err := f.openThread(ws, cmd, stderr)
	if err != nil {
		return nil, turn, nil, err
	}
	if _, err := openIn(ctx, ws, f.rf); err != nil {
		return nil, turn, nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return ws, turn, agent.New(f.af.config(logger)), nil
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
