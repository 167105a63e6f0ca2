package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/askls/askls/agent"
)

// runChat is `askls chat`: questions read one a line from stdin until the
// end of input, each answered as the next turn of one thread, with its
// citations printed after the answer.
func runChat(ctx context.Context, args []string) error {
	return chatMain(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

func chatMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: askls chat [flags]\n\nReads questions, one a line, until the end of input (Ctrl-D) and answers\neach as a follow-up of the ones before, with citations after each answer.\n\nflags:")
		fs.PrintDefaults()
	}
	var rf rootFlags
	rf.register(fs)
	var af agentFlags
	af.register(fs)
	fs.BoolVar(&af.noModel, "no-model", false, "retrieval mode only: never contact the model server")
	threadID := fs.String("thread", "", "continue thread `ID` (see askls threads); default: a new thread")
	cont := fs.Bool("continue", false, "continue the workspace's most recent thread")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError(fmt.Sprintf("askls chat: unexpected argument %q (questions are read from the input)", rest[0]))
	}
	if *threadID != "" && *cont {
		return usageError("askls chat: --thread and --continue: give one")
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, th, err := openThread(rf, *threadID, *cont, stderr)
	if err != nil {
		return err
	}
	f, ok := stdin.(*os.File)
	interactive := ok && term.IsTerminal(int(f.Fd()))
	ix, _, err := openWorkspace(ctx, rf, interactive)
	if err != nil {
		return fmt.Errorf("askls chat: %w", err)
	}
	defer ix.Close()
	a := agent.New(af.config(logger))
	if interactive {
		fmt.Fprintf(stderr, "askls chat: thread %s; one question a line, Ctrl-D to end.\n", th.ID)
	}

	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64*1024), 1<<20)
	first := true
	for {
		if interactive {
			fmt.Fprint(stderr, "> ")
		}
		if !in.Scan() {
			break
		}
		q := strings.TrimSpace(in.Text())
		if q == "" {
			continue
		}
		// Follow the files between questions: a citation of a file edited
		// since comes back stale.
		if _, err := ix.Sync(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "askls: warning: the index could not follow the files: %v\n", err)
		}
		if !first {
			fmt.Fprintln(stdout)
		}
		first = false
		if !interactive {
			fmt.Fprintf(stdout, "> %s\n\n", q)
		}
		snap := ix.Snapshot()
		_, err := askOne(ctx, a, ix, snap, th, agent.Question{Text: q}, false, stdout, stderr)
		var u usageError
		switch {
		case errors.As(err, &u):
			fmt.Fprintln(stderr, "askls:", err) // a question too long: say so, keep reading
			continue
		case err != nil:
			return err
		}
		saveThread(store, th, stderr)
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("askls chat: reading the questions: %w", err)
	}
	if store != nil && len(th.Turns) > 0 {
		fmt.Fprintf(stderr, "askls: thread %s (continue: askls chat --continue)\n", th.ID)
	}
	return nil
}
