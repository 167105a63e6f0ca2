package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/workspace"
)

// runChat is `askls chat`: questions read one a line from stdin until the
// end of input, each answered as the next turn of one thread, with its
// citations printed after the answer.
func runChat(ctx context.Context, args []string) error {
	return chatMain(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

func chatMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("chat", "usage: askls chat [flags]\n\nReads questions, one a line, until the end of input (Ctrl-D) and answers\neach as a follow-up of the ones before, with citations after each answer.", stderr)
	var f askFlags
	f.register(fs)
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError(fmt.Sprintf("askls chat: unexpected argument %q (questions are read from the input)", rest[0]))
	}
	file, ok := stdin.(*os.File)
	interactive := ok && term.IsTerminal(int(file.Fd()))
	ws, turn, a, err := f.session(ctx, "askls chat", interactive, stderr)
	if err != nil {
		return err
	}
	defer ws.Close()
	if interactive {
		fmt.Fprintf(stderr, "askls chat: thread %s; one question a line, Ctrl-D to end.\n", turn.Thread.ID)
	}
	if err := chatLoop(ctx, chatSession{a: a, ws: ws, turn: turn, interactive: interactive}, stdin, stdout, stderr); err != nil {
		return err
	}
	if turn.Store != nil && len(turn.Thread.Turns) > 0 {
		fmt.Fprintf(stderr, "askls: thread %s (continue: askls chat --continue)\n", turn.Thread.ID)
	}
	return nil
}

// chatSession is what askls chat answers with: the agent, the workspace
// and the thread each answer is a turn of (saved when turn.Store is set).
type chatSession struct {
	a           *agent.Agent
	ws          *workspace.Workspace
	turn        workspace.Turn
	interactive bool // stdin is a terminal: prompt on stderr, no echo
}

// chatLoop answers the questions of stdin, one a line, as turns of
// c.turn's thread, following the files between questions. A question that
// is not one (too long) is said on stderr and the loop goes on.
func chatLoop(ctx context.Context, c chatSession, stdin io.Reader, stdout, stderr io.Writer) error {
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64*1024), 1<<20)
	first := true
	for {
		if c.interactive {
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
		if _, err := c.ws.Sync(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "askls: warning: the index could not follow the files: %v\n", err)
		}
		if !first {
			fmt.Fprintln(stdout)
		}
		first = false
		if !c.interactive {
			fmt.Fprintf(stdout, "> %s\n\n", q)
		}
		_, err := askOne(ctx, c.a, c.ws, c.turn, workspace.Question{Text: q}, false, stdout, stderr)
		var u usageError
		switch {
		case errors.As(err, &u):
			fmt.Fprintln(stderr, "askls:", err) // a question too long: say so, keep reading
			continue
		case err != nil:
			return err
		}
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("askls chat: reading the questions: %w", err)
	}
	return nil
}
