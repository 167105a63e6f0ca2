package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/askls/askls/agent"
)

// runDoctor is `askls doctor`: is the configured model server reachable
// (Ollama: which version, is the model pulled, can it call tools, its
// context length; OpenAI-compatible: which models it serves). Each problem comes
// with the command that fixes it; exit status 1 when there is one.
func runDoctor(ctx context.Context, args []string) error {
	return doctorMain(ctx, args, os.Stdout, os.Stderr)
}

func doctorMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var af agentFlags
	af.register(fs)
	asJSON := fs.Bool("json", false, "print the health as one JSON object")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("askls doctor: unexpected arguments %q", fs.Args()))
	}
	a := agent.New(af.config(slog.New(slog.NewTextHandler(io.Discard, nil))))
	h := a.Health(ctx)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(h); err != nil {
			return err
		}
	} else {
		if h.Provider == agent.ProviderOpenAI {
			fmt.Fprintf(stdout, "openai      %s: %s\n", h.Host, yesNo(h.Reachable, "reachable", "not reachable"))
			if h.Reachable {
				fmt.Fprintf(stdout, "model       %s: %s\n", h.Model, yesNo(h.ModelPresent, "served", "not served"))
				if len(h.Models) > 0 {
					fmt.Fprintf(stdout, "models      %s\n", strings.Join(h.Models, ", "))
				}
				fmt.Fprintln(stdout, "tools       not checked (an OpenAI-compatible server does not say; the first answer shows it)")
			}
		} else {
			fmt.Fprintf(stdout, "ollama      %s: %s\n", h.Host, yesNo(h.Reachable, "reachable, version "+h.Version, "not reachable"))
			if h.Reachable {
				fmt.Fprintf(stdout, "model       %s: %s\n", h.Model, yesNo(h.ModelPresent, "pulled", "not pulled"))
			}
			if h.ModelPresent {
				fmt.Fprintf(stdout, "tools       %s\n", yesNo(h.Tools, "supported", "not supported"))
				ctxLen := "unknown"
				if h.ContextLength > 0 {
					ctxLen = fmt.Sprint(h.ContextLength)
				}
				fmt.Fprintf(stdout, "context     %s tokens (askls asks for num_ctx %d)\n", ctxLen, h.NumCtx)
			}
		}
		if len(h.Problems) == 0 {
			fmt.Fprintln(stdout, "\nall good: `askls ask QUESTION` answers with the model")
			return nil
		}
		fmt.Fprintln(stdout, "\nto fix:")
		for _, p := range h.Problems {
			fmt.Fprintf(stdout, "  - %s\n", p)
		}
		fmt.Fprintln(stdout, "\nuntil then `askls ask` answers in retrieval mode (ranked, cited code, no model)")
	}
	if len(h.Problems) > 0 {
		return fmt.Errorf("askls doctor: %d problem(s)", len(h.Problems))
	}
	return nil
}

func yesNo(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}
