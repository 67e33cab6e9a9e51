package stmtstats

import (
	"math"
	"sync"
	"testing"
	"time"
)

func TestTimingMatchesBruteForce(t *testing.T) {
	for _, xs := range [][]float64{{1}, {1, 2, 3, 4}, {5, 5, 5}, {0.1, 100, 3.5, 7, 7, 1e-3}} {
		s := New(10)
		for _, x := range xs {
			s.Record(Key{QueryID: 1}, Exec{Query: "q", ExecTime: time.Duration(x * 1e6)})
		}
		e := s.Entries()[0]
		var sum, mn, mx = 0.0, math.Inf(1), math.Inf(-1)
		for _, x := range xs {
			sum += x
			mn, mx = math.Min(mn, x), math.Max(mx, x)
		}
		mean := sum / float64(len(xs))
		var sq float64
		for _, x := range xs {
			sq += (x - mean) * (x - mean)
		}
		sd := math.Sqrt(sq / float64(len(xs)))
		if len(xs) < 2 {
			sd = 0
		}
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6*math.Max(1, math.Abs(b)) }
		if e.Calls() != int64(len(xs)) || !near(e.Exec.Total, sum) || !near(e.Exec.Min, mn) || !near(e.Exec.Max, mx) ||
			!near(e.Exec.Mean(), mean) || !near(e.Exec.Stddev(), sd) {
			t.Errorf("%v: calls %d total %g min %g max %g mean %g sd %g; want %g %g %g %g %g", xs, e.Calls(), e.Exec.Total,
				e.Exec.Min, e.Exec.Max, e.Exec.Mean(), e.Exec.Stddev(), sum, mn, mx, mean, sd)
		}
	}
}

func TestEvictsLeastUsed(t *testing.T) {
	s := New(4)
	for q := int64(1); q <= 4; q++ {
		for i := int64(0); i < q*10; i++ {
			s.Record(Key{QueryID: q}, Exec{Query: "q"})
		}
	}
	s.Record(Key{QueryID: 5}, Exec{Query: "new"})
	got := map[int64]bool{}
	for _, e := range s.Entries() {
		got[e.QueryID] = true
	}
	if got[1] || !got[2] || !got[3] || !got[4] || !got[5] || len(got) != 4 {
		t.Errorf("after eviction: %v, want 2..5", got)
	}
	if d, _ := s.Info(); d != 1 {
		t.Errorf("dealloc = %d, want 1", d)
	}
}

func TestResetAndPaths(t *testing.T) {
	s := New(0)
	s.Record(Key{UserID: 1, QueryID: 7}, Exec{Query: "a", AccessPath: "full scan", FullScans: 1, ItemsRead: 10})
	s.Record(Key{UserID: 1, QueryID: 7}, Exec{Query: "a", AccessPath: "range scan", ItemsRead: 2})
	s.Record(Key{UserID: 1, QueryID: 7}, Exec{Query: "a", AccessPath: "range scan", ItemsRead: 2})
	s.Record(Key{UserID: 2, QueryID: 8}, Exec{Query: "b"})
	es := s.Entries()
	if len(es) != 2 {
		t.Fatalf("%d entries", len(es))
	}
	for _, e := range es {
		if e.QueryID == 7 && (e.AccessPath() != "range scan" || e.FullScans != 1 || e.ItemsRead != 14) {
			t.Errorf("entry 7: path %q full %d read %d", e.AccessPath(), e.FullScans, e.ItemsRead)
		}
	}
	s.Reset(2, 0, 0)
	if es := s.Entries(); len(es) != 1 || es[0].QueryID != 7 {
		t.Errorf("after reset of user 2: %v", es)
	}
	s.Reset(0, 0, 0)
	if len(s.Entries()) != 0 {
		t.Error("full reset kept entries")
	}
}

func TestSamplesBoundedAndConcurrent(t *testing.T) {
	s := New(0)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				s.Record(Key{QueryID: 1}, Exec{Query: "q", Sample: i})
				_ = s.Entries()
			}
		}()
	}
	wg.Wait()
	e := s.Entries()[0]
	if e.Calls() != 2000 || len(e.Samples) != MaxSamples {
		t.Errorf("calls %d samples %d", e.Calls(), len(e.Samples))
	}
}
