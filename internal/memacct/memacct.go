// Package memacct bounds the memory sessions hold outside a statement's
// operators: a COPY's pending writes, a transaction's buffered writes,
// prepared statements, and cursors with their kept rows. work_mem bounds
// each operator of a statement while it runs (and spills past it); what
// this package counts lives longer than one operator, cannot spill, and
// so is refused past a limit, as PostgreSQL refuses an allocation it
// cannot make: 53200 "out of memory", with a DETAIL naming the request.
//
// An Account is one session's share of a Pool, the process-wide bound.
// Both limits are hard: a request that would cross either fails and
// takes nothing, so the session that asked gets the error and keeps
// working, and every other session is untouched.
package memacct

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Pool is the process-wide bound: the sum over its Accounts.
type Pool struct {
	limit int64 // <= 0: none
	used  atomic.Int64

	// pressure is called with true when use crosses pressureAt upwards
	// and with false when it falls below half of it (SetPressureHook).
	pressureMu sync.Mutex
	pressure   func(high bool)
	pressureAt int64
	high       bool
	// watch mirrors pressureAt (0: no hook) and highNow high, so that
	// the requests of every session check the threshold without taking
	// pressureMu unless they cross it.
	watch   atomic.Int64
	highNow atomic.Bool
}

// SetPressureHook calls fn(true) when the Pool's use rises past at, and
// fn(false) when it falls back below at/2 (the gap keeps a use that
// hovers around at from calling it at every request). zproxy lowers the
// Go collector's target meanwhile: what sessions hold is live heap (a
// block's buffered writes), and at --gc-percent 400 the heap may grow to
// five times its live part before a collection.
func (p *Pool) SetPressureHook(at int64, fn func(high bool)) {
	p.pressureMu.Lock()
	defer p.pressureMu.Unlock()
	p.pressure, p.pressureAt = fn, at
	if fn != nil {
		p.watch.Store(max(at, 1))
	} else {
		p.watch.Store(0)
	}
}

// checkPressure calls the hook when use crossed its threshold.
func (p *Pool) checkPressure(now int64) {
	at := p.watch.Load()
	if at == 0 {
		return
	}
	if high := p.highNow.Load(); (high && now >= at/2) || (!high && now <= at) {
		return // no crossing: the common case, without the lock
	}
	p.pressureMu.Lock()
	defer p.pressureMu.Unlock()
	if p.pressure == nil {
		return
	}
	switch {
	case !p.high && now > p.pressureAt:
		p.high = true
		p.highNow.Store(true)
		p.pressure(true)
	case p.high && now < p.pressureAt/2:
		p.high = false
		p.highNow.Store(false)
		p.pressure(false)
	}
}

// NewPool returns a Pool holding at most limit bytes (<= 0: no limit,
// but use is still counted).
func NewPool(limit int64) *Pool { return &Pool{limit: limit} }

// Used is what the Pool's Accounts hold now.
func (p *Pool) Used() int64 { return p.used.Load() }

// Limit is the Pool's limit (<= 0: none).
func (p *Pool) Limit() int64 { return p.limit }

// Account returns a session's Account, holding at most limit bytes
// (<= 0: only the Pool's limit applies). A nil Pool gives an Account that
// only counts against its own limit.
func (p *Pool) Account(limit int64) *Account { return &Account{pool: p, limit: limit} }

// Account is one session's use. Its methods may be called from several
// goroutines (a cursor may be closed by the session's end).
type Account struct {
	pool   *Pool
	limit  int64
	used   atomic.Int64
	closed atomic.Bool // Close gave everything back: later Shrinks are no-ops
}

// Used is what the Account holds now.
func (a *Account) Used() int64 {
	if a == nil {
		return 0
	}
	return a.used.Load()
}

// Grow takes n more bytes for what (a phrase: "COPY's pending writes"),
// or returns 53200 and takes nothing when the session's or the process's
// limit would be crossed. A nil Account takes anything.
func (a *Account) Grow(n int64, what string) error {
	if a == nil || n <= 0 {
		return nil
	}
	if now := a.used.Add(n); a.limit > 0 && now > a.limit {
		a.used.Add(-n)
		return outOfMemory(n, what, now-n, a.limit, "the session holds", "--session-memory-limit")
	}
	if a.pool != nil {
		now := a.pool.used.Add(n)
		if a.pool.limit > 0 && now > a.pool.limit {
			a.pool.used.Add(-n)
			a.used.Add(-n)
			return outOfMemory(n, what, now-n, a.pool.limit, "all sessions hold", "--all-sessions-memory-limit")
		}
		a.pool.checkPressure(now)
	}
	return nil
}

// Shrink gives back n bytes taken by Grow.
func (a *Account) Shrink(n int64) {
	if a == nil || n <= 0 || a.closed.Load() {
		return
	}
	a.used.Add(-n)
	if a.pool != nil {
		a.pool.checkPressure(a.pool.used.Add(-n))
	}
}

// Close gives back everything the Account holds (the session ended); what
// is released after it (a portal or cursor closed later) was given back
// already.
func (a *Account) Close() {
	if a == nil {
		return
	}
	a.closed.Store(true)
	n := a.used.Swap(0)
	if a.pool != nil {
		a.pool.checkPressure(a.pool.used.Add(-n))
	}
}

// outOfMemory is PostgreSQL's error for an allocation it could not make,
// whose DETAIL names the request ("Failed on request of size N"), here
// with what asked and which limit refused it.
func outOfMemory(n int64, what string, held, limit int64, who, setting string) error {
	return pgerr.New(pgerr.OutOfMemory, "out of memory").
		WithDetail("Failed on request of size %d bytes for %s: %s %s of the %s allowed (%s).",
			n, what, who, Bytes(held), Bytes(limit), setting)
}

// Bytes formats a size as PostgreSQL's pg_size_pretty does for the sizes
// limits take (bytes, kB, MB, GB).
func Bytes(n int64) string {
	switch {
	case n >= 10<<30:
		return fmt.Sprintf("%d GB", (n+(1<<29))>>30)
	case n >= 10<<20:
		return fmt.Sprintf("%d MB", (n+(1<<19))>>20)
	case n >= 10<<10:
		return fmt.Sprintf("%d kB", (n+(1<<9))>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
