package stmtstats

import (
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"time"
)

// DefaultMax is PostgreSQL's default pg_stat_statements.max.
const DefaultMax = 5000

// MaxSamples is how many executions' workload records an entry keeps.
const MaxSamples = 16

// Key identifies an entry: the role, the database and the statement's
// shape (parser.Normalize), and whether it ran at top level, as in
// PostgreSQL.
type Key struct {
	UserID, DBID uint32
	QueryID      int64
	Toplevel     bool
}

// Exec is one completed execution of a statement.
type Exec struct {
	// Query is the normalised text; an entry keeps the first one seen.
	Query string
	// Planned reports whether the execution planned (PlanTime is then the
	// optimizer's time).
	Planned  bool
	PlanTime time.Duration
	ExecTime time.Duration
	// Rows are rows returned, or affected by a write.
	Rows                int64
	ItemsRead, Requests int64
	Capacity            float64
	// AccessPath is the first table read's method ("" for none); FullScans
	// counts the full table scans of this execution.
	AccessPath string
	FullScans  int64
	// Sample is the execution's workload record, kept for a few
	// executions of each entry.
	Sample any
	// Shape is the execution's plan without constants (a JSON document,
	// optimizer.PlanShape), given with a Sample; the entry keeps the
	// latest.
	Shape string
}

// Timing accumulates durations in milliseconds (Welford's method for the
// deviation, which stays exact over millions of calls).
type Timing struct {
	N               int64
	Total, Min, Max float64
	mean, m2        float64
}

func (t *Timing) add(ms float64) {
	t.N++
	t.Total += ms
	if t.N == 1 || ms < t.Min {
		t.Min = ms
	}
	if ms > t.Max {
		t.Max = ms
	}
	d := ms - t.mean
	t.mean += d / float64(t.N)
	t.m2 += d * (ms - t.mean)
}

// Mean is the mean duration (0 without any).
func (t Timing) Mean() float64 { return t.mean }

// Stddev is the population standard deviation, as pg_stat_statements
// reports it.
func (t Timing) Stddev() float64 {
	if t.N < 2 {
		return 0
	}
	return math.Sqrt(t.m2 / float64(t.N))
}

// Entry is one statement's statistics.
type Entry struct {
	Key
	Query     string
	Plan      Timing
	Exec      Timing
	Rows      int64
	ItemsRead int64
	Requests  int64
	Capacity  float64
	FullScans int64
	// Paths counts executions by the access path of their first table read.
	Paths map[string]int64
	// Samples are workload records of some executions (a uniform sample).
	// They hold plan structures and stay in the proxy that recorded them:
	// an entry encoded for another proxy (Merge) goes without them.
	Samples []any `json:"-"`
	// Shape is the latest sampled execution's plan without constants
	// ("" for statements that do not plan).
	Shape string
	// First and Last are when the entry was created and last updated.
	First, Last time.Time

	usage float64
}

// sortEntries orders entries most total execution time first.
func sortEntries(out []Entry) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Exec.Total != out[j].Exec.Total {
			return out[i].Exec.Total > out[j].Exec.Total
		}
		return out[i].QueryID < out[j].QueryID
	})
}

// Calls is the number of executions recorded.
func (e *Entry) Calls() int64 { return e.Exec.N }

// AccessPath is the access path most executions took ("" when none read
// a table); ties go to the name first in order.
func (e *Entry) AccessPath() string {
	best, n := "", int64(0)
	for p, c := range e.Paths {
		if c > n || c == n && p < best {
			best, n = p, c
		}
	}
	return best
}

func (e *Entry) clone() Entry {
	c := *e
	c.Paths = make(map[string]int64, len(e.Paths))
	for k, v := range e.Paths {
		c.Paths[k] = v
	}
	c.Samples = append([]any(nil), e.Samples...)
	return c
}

// Store is the statistics of one proxy. Its methods are safe for
// concurrent use.
//
// Every execution of every session records into it, so recording takes
// the store's lock shared and only its entry's lock exclusively: sessions
// running different statements never wait on each other, and only a new
// statement's first execution (which adds an entry) takes the store
// exclusively.
type Store struct {
	mu      sync.RWMutex
	max     int
	entries map[Key]*slot
	dealloc int64
	reset   time.Time
	now     func() time.Time
}

// New returns a store of at most max entries (DefaultMax when max ≤ 0).
func New(max int) *Store {
	if max <= 0 {
		max = DefaultMax
	}
	return &Store{max: max, entries: map[Key]*slot{}, reset: time.Now(), now: time.Now}
}

// slot is an entry with the lock its updates take.
type slot struct {
	mu sync.Mutex
	e  Entry
}

// Record adds one execution of the statement k.
func (s *Store) Record(k Key, x Exec) {
	if s == nil {
		return
	}
	s.mu.RLock()
	if sl := s.entries[k]; sl != nil {
		sl.mu.Lock()
		s.add(&sl.e, x)
		sl.mu.Unlock()
		s.mu.RUnlock()
		return
	}
	s.mu.RUnlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := s.entries[k]
	if sl == nil {
		if len(s.entries) >= s.max {
			s.evict()
		}
		sl = &slot{e: Entry{Key: k, Query: x.Query, Paths: map[string]int64{}, First: s.now()}}
		s.entries[k] = sl
	}
	s.add(&sl.e, x) // the store is held exclusively: no other update runs
}

// add records x in e, whose slot's lock (or the store's, exclusively) the
// caller holds.
func (s *Store) add(e *Entry, x Exec) {
	e.Last = s.now()
	e.usage++
	if x.Planned {
		e.Plan.add(ms(x.PlanTime))
	}
	e.Exec.add(ms(x.ExecTime))
	e.Rows += x.Rows
	e.ItemsRead += x.ItemsRead
	e.Requests += x.Requests
	e.Capacity += x.Capacity
	e.FullScans += x.FullScans
	if x.AccessPath != "" {
		e.Paths[x.AccessPath]++
	}
	if x.Shape != "" {
		e.Shape = x.Shape
	}
	if x.Sample != nil {
		// The second half of reservoir sampling (WantSample drew the
		// chance): a kept execution replaces a random one.
		if len(e.Samples) < MaxSamples {
			e.Samples = append(e.Samples, x.Sample)
		} else {
			e.Samples[rand.IntN(MaxSamples)] = x.Sample
		}
	}
}

// WantSample reports whether the next execution of k should carry a
// workload sample: always for its first MaxSamples executions, then with
// chance MaxSamples/n for the n-th, so the kept samples stay a uniform
// sample of every execution (reservoir sampling), and building a sample,
// which costs more than recording the execution, is rare for frequent
// statements.
func (s *Store) WantSample(k Key) bool {
	if s == nil {
		return false
	}
	s.mu.RLock()
	var n int64
	if sl := s.entries[k]; sl != nil {
		sl.mu.Lock()
		n = sl.e.Exec.N
		sl.mu.Unlock()
	}
	s.mu.RUnlock()
	return n < MaxSamples || rand.Int64N(n+1) < MaxSamples
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// evict drops the least-used 5% of the entries (at least one) and decays
// the usage of the rest, as pg_stat_statements does.
func (s *Store) evict() {
	all := make([]*Entry, 0, len(s.entries))
	for _, sl := range s.entries {
		all = append(all, &sl.e)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].usage != all[j].usage {
			return all[i].usage < all[j].usage
		}
		return all[i].Last.Before(all[j].Last)
	})
	n := max(1, len(all)/20)
	for _, e := range all[:n] {
		delete(s.entries, e.Key)
	}
	for _, e := range all[n:] {
		e.usage *= 0.99
	}
	s.dealloc++
}

// Entries returns a copy of every entry, most total execution time first.
func (s *Store) Entries() []Entry {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	out := make([]Entry, 0, len(s.entries))
	for _, sl := range s.entries {
		sl.mu.Lock()
		out = append(out, sl.e.clone())
		sl.mu.Unlock()
	}
	s.mu.RUnlock()
	sortEntries(out)
	return out
}

// Reset discards the entries matching userID, dbID and queryID, zero
// matching any (pg_stat_statements_reset); resetting everything also
// restarts the statistics' clock and the eviction count.
func (s *Store) Reset(userID, dbID uint32, queryID int64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID == 0 && dbID == 0 && queryID == 0 {
		s.entries = map[Key]*slot{}
		s.dealloc = 0
		s.reset = s.now()
		return
	}
	for k := range s.entries {
		if (userID == 0 || k.UserID == userID) && (dbID == 0 || k.DBID == dbID) && (queryID == 0 || k.QueryID == queryID) {
			delete(s.entries, k)
		}
	}
}

// Info is pg_stat_statements_info: evictions since the last full reset,
// and when that was.
func (s *Store) Info() (dealloc int64, reset time.Time) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.dealloc, s.reset
}

// Max is the store's bound on entries.
func (s *Store) Max() int { return s.max }
