package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The handler chain. jsonrpc2 v0.10.0 calls the handler on its read
// goroutine, one message after another, and closes the connection if the
// handler returns an error. This file turns that into:
//
//   - ordering: each message starts only after the one before it has
//     finished or released the queue (release), so a didChange is applied
//     before the request that follows it reads the document;
//   - early release: a long request (askls/ask) calls release once it has
//     taken its snapshot, and later messages run while it works;
//   - cancellation: $/cancelRequest is handled on the read goroutine at
//     once and cancels the request's context; a cancelled request is
//     answered with -32800;
//   - recovery: a panic in one handler is logged and answered with an
//     internal error; the server keeps serving.
//
// It is the same pattern gopls uses (an async handler that unlocks the next
// request when the current one releases), written for this server.

// handlerFunc handles one message. release may be called at any point to let
// the next message start; it is idempotent and called automatically when the
// handler returns. The returned value is the result (ignored for
// notifications).
type handlerFunc func(ctx context.Context, req jsonrpc2.Request, release func()) (any, error)

type queue struct {
	log    *slog.Logger
	handle handlerFunc
	// onPanic, when set, runs (on its own goroutine) after a handler
	// panicked: the server checks its index's store (damage.go).
	onPanic func()

	next chan struct{} // closed when the previous message released; read goroutine only

	mu       sync.Mutex
	inflight map[jsonrpc2.ID]context.CancelFunc
	wg       sync.WaitGroup
}

func newQueue(log *slog.Logger, h handlerFunc) *queue {
	q := &queue{log: log, handle: h, next: make(chan struct{}), inflight: map[jsonrpc2.ID]context.CancelFunc{}}
	close(q.next)
	return q
}

// serve is the jsonrpc2.Handler. It never blocks and never returns an error
// (an error would close the connection).
func (q *queue) serve(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() == protocol.MethodCancelRequest {
		q.cancel(req.Params())
		return nil
	}

	ctx, cancel := context.WithCancel(ctx)
	call, isCall := req.(*jsonrpc2.Call)
	if isCall {
		q.mu.Lock()
		q.inflight[call.ID()] = cancel
		q.mu.Unlock()
	}

	wait := q.next
	next := make(chan struct{})
	q.next = next
	var once sync.Once
	release := func() { once.Do(func() { close(next) }) }

	q.wg.Add(1)
	go func() {
		defer q.wg.Done()
		defer cancel()
		defer release()
		select {
		case <-wait:
		case <-ctx.Done():
			// Cancelled while queued: still wait for our turn so that
			// ordering holds for the messages behind us.
			<-wait
		}
		result, err := q.run(ctx, req, release)
		if isCall {
			q.mu.Lock()
			delete(q.inflight, call.ID())
			q.mu.Unlock()
		}
		if !isCall {
			return // the handler logged its error
		}
		if err == nil {
			result, err = encodeResult(result)
		}
		if err != nil {
			err = wireError(ctx, err)
			result = nil
		}
		if rerr := reply(context.WithoutCancel(ctx), result, err); rerr != nil {
			q.log.Debug("reply not sent", "method", req.Method(), "err", rerr)
		}
	}()
	return nil
}

// run calls the handler, turning a panic into an error.
func (q *queue) run(ctx context.Context, req jsonrpc2.Request, release func()) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			q.log.Error("handler panicked", "method", req.Method(), "panic", p, "stack", string(debug.Stack()))
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "askls: internal error in %s: %v", req.Method(), p)
			if q.onPanic != nil {
				go q.onPanic()
			}
		}
	}()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return q.handle(ctx, req, release)
}

func (q *queue) cancel(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.ID) == 0 {
		q.log.Warn("ignoring $/cancelRequest with bad params", "params", string(params))
		return
	}
	var id jsonrpc2.ID
	if err := json.Unmarshal(p.ID, &id); err != nil {
		q.log.Warn("ignoring $/cancelRequest with bad id", "id", string(p.ID))
		return
	}
	q.mu.Lock()
	cancel := q.inflight[id]
	q.mu.Unlock()
	if cancel != nil {
		q.log.Debug("request cancelled by the client", "id", fmt.Sprint(id))
		cancel()
	}
}

// encodeResult encodes a handler's result with encoding/json, the JSON
// package clients read with, rather than leaving it to jsonrpc2, whose
// package writes a time.Duration as "12ms", a string encoding/json cannot
// read back. (The reply types keep durations as numbers with their unit in
// the name all the same: durationMs.)
func encodeResult(result any) (json.RawMessage, error) {
	b, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	return b, nil
}

// wait blocks until every handler goroutine has finished.
func (q *queue) wait() { q.wg.Wait() }

// wireError maps an error to the JSON-RPC error the client sees. A request
// that was cancelled ($/cancelRequest, or the user cancelling its
// progress) gets -32800 whatever error it returned.
func wireError(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled) {
		return jsonrpc2.NewError(protocol.CodeRequestCancelled, "request cancelled")
	}
	var werr *jsonrpc2.Error
	if errors.As(err, &werr) {
		if werr.Error() == err.Error() {
			return werr
		}
		return &jsonrpc2.Error{Code: werr.Code, Message: err.Error()}
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// Errors with a JSON-RPC code, for handlers.

func invalidParams(format string, args ...any) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf(format, args...))
}

func invalidRequest(format string, args ...any) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidRequest, fmt.Sprintf(format, args...))
}
