package catalog

import "sync"

// memo holds what later stages derive from one snapshot and keep for as
// long as the snapshot lives (pgcatalog's relations by OID and name, its
// schema names): each snapshot has its own, so two databases' (or two
// sessions') statements never replace each other's, and what is derived
// goes with the snapshot rather than growing with the catalog versions a
// process has seen. It is made with the snapshot and never replaced, so
// copies of a snapshot (WithPath, WithTemp) get a memo of their own.
type memo struct {
	mu   sync.Mutex
	vals map[any]*memoEntry
}

type memoEntry struct {
	once sync.Once
	val  any
}

func newMemo() *memo { return &memo{vals: map[any]*memoEntry{}} }

// Memo returns the value derived from s under key, calling build the first
// time the key is asked of s (concurrent callers wait for that one call).
// key is a value of a type of the caller's package, as for
// context.WithValue. build must not ask Memo for the same key of s. A
// snapshot made outside the catalog (a bare &Snapshot{}) keeps nothing:
// build is called each time.
func (s *Snapshot) Memo(key any, build func() any) any {
	if s == nil || s.memo == nil {
		return build()
	}
	m := s.memo
	m.mu.Lock()
	e := m.vals[key]
	if e == nil {
		e = &memoEntry{}
		m.vals[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.val = build() })
	return e.val
}
