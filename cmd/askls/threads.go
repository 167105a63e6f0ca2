package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/askls/askls/thread"
	"github.com/askls/askls/workspace"
)

// openThread opens the workspace's thread store and the thread to ask in:
// thread id, the most recent one (cont), else a new one. A store that
// cannot be opened is a warning (the answer is still given, in a thread
// that is not kept) unless a thread was asked for by id or --continue.
func openThread(ws *workspace.Workspace, id string, cont bool, stderr io.Writer) (workspace.Turn, error) {
	store, err := ws.Threads()
	if err != nil {
		if id != "" || cont {
			return workspace.Turn{}, fmt.Errorf("askls: %w", err)
		}
		fmt.Fprintf(stderr, "askls: warning: the answer will not be kept in a thread: %v\n", err)
		return workspace.Turn{Thread: thread.New("")}, nil
	}
	var th *thread.Thread
	switch {
	case id != "":
		th, err = store.Load(id)
		if errors.Is(err, thread.ErrNotFound) {
			return workspace.Turn{}, usageError(fmt.Sprintf("askls: --thread %s: no such thread in this workspace (askls threads lists them)", id))
		}
	case cont:
		th, err = store.Last()
		if errors.Is(err, thread.ErrNotFound) {
			return workspace.Turn{}, usageError("askls: --continue: this workspace has no thread yet; ask without --continue to start one")
		}
	default:
		th = store.New()
	}
	if err != nil {
		return workspace.Turn{}, err
	}
	return workspace.Turn{Store: store, Thread: th}, nil
}

// runThreads is `askls threads [--json] [--show ID] [--delete ID]`.
func runThreads(ctx context.Context, args []string) error {
	return threadsMain(ctx, args, os.Stdout, os.Stderr)
}

func threadsMain(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("threads", "usage: askls threads [flags]\n\nLists the workspace's threads, the most recent first; --show prints one,\n--delete removes one.", stderr)
	var rf rootFlags
	rf.Register(fs)
	asJSON := fs.Bool("json", false, "print JSON: the list, or the thread with --show")
	show := fs.String("show", "", "print thread `ID` turn by turn")
	del := fs.String("delete", "", "delete thread `ID`")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError(fmt.Sprintf("askls threads: unexpected argument %q", rest[0]))
	}
	store, err := newWorkspace(rf, false).Threads()
	if err != nil {
		return fmt.Errorf("askls threads: %w", err)
	}
	notFound := func(err error) error {
		if errors.Is(err, thread.ErrNotFound) {
			return usageError("askls threads: " + err.Error())
		}
		return fmt.Errorf("askls threads: %w", err)
	}
	switch {
	case *del != "":
		if err := store.Delete(*del); err != nil {
			return notFound(err)
		}
		fmt.Fprintf(stderr, "askls: thread %s deleted\n", *del)
		return nil
	case *show != "":
		th, err := store.Load(*show)
		if err != nil {
			return notFound(err)
		}
		if *asJSON {
			return writeJSON(stdout, th)
		}
		printThread(stdout, th)
		return nil
	}
	list, err := store.List()
	if err != nil {
		return fmt.Errorf("askls threads: %w", err)
	}
	if *asJSON {
		return writeJSON(stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(stderr, "askls: no threads in this workspace yet (askls ask starts one)")
		return nil
	}
	for _, s := range list {
		fmt.Fprintf(stdout, "%s  %s  %2d turns  %s\n", s.ID, s.Updated.Local().Format(time.DateTime), s.Turns, s.Title)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printThread prints each turn: the question, the answer and its
// citations as they were when it was given.
func printThread(w io.Writer, th *thread.Thread) {
	for i, t := range th.Turns {
		fmt.Fprintf(w, "## %d. %s\n\n%s\n", i+1, strings.TrimSpace(t.Question), strings.TrimSpace(t.Answer))
		if len(t.Citations) > 0 {
			fmt.Fprintln(w)
		}
		for _, c := range t.Citations {
			fmt.Fprintf(w, "[%d] %s:%d%s\n", c.N, c.Path, c.Start, citationTail(c))
		}
		fmt.Fprintln(w)
	}
}
