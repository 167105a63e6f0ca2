package lsp

import (
	"errors"

	"github.com/askls/askls/index"
)

// checkStore runs after a request panicked: a panic from the index's
// store may mean a damaged segment. When the check finds one, the index is
// reopened, which rebuilds it (with one log line).
func (s *server) checkStore() {
	ix := s.ws.current()
	if ix == nil {
		return
	}
	if err := ix.CheckStore(); errors.Is(err, index.ErrDamaged) {
		s.reopenDamaged(err)
	}
}

// reopenDamaged reopens the index of the current roots and settings, as
// askls.reindex does: the index found damaged is rebuilt as it opens.
// It is index.Options.OnDamaged too, called from a search's goroutine.
func (s *server) reopenDamaged(err error) {
	s.log.Error("the index is damaged; reopening it to rebuild it", "err", err)
	s.mu.Lock()
	roots, cfg := rootsOf(s.folders), s.cfg
	s.mu.Unlock()
	go s.ws.start(roots, cfg)
}
