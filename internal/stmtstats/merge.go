package stmtstats

import (
	"encoding/json"
	"math"
)

// timingJSON is Timing as proxies exchange it: with the running mean and
// sum of squared deviations, so merged deviations stay exact.
type timingJSON struct {
	N     int64   `json:"n"`
	Total float64 `json:"total"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Mean  float64 `json:"mean"`
	M2    float64 `json:"m2"`
}

// MarshalJSON encodes the timing with its running moments.
func (t Timing) MarshalJSON() ([]byte, error) {
	return json.Marshal(timingJSON{t.N, t.Total, t.Min, t.Max, t.mean, t.m2})
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func (t *Timing) UnmarshalJSON(b []byte) error {
	var j timingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*t = Timing{N: j.N, Total: j.Total, Min: j.Min, Max: j.Max, mean: j.Mean, m2: j.M2}
	return nil
}

// merge adds o's durations to t (Chan et al.'s parallel form of Welford's
// method).
func (t *Timing) merge(o Timing) {
	switch {
	case o.N == 0:
		return
	case t.N == 0:
		*t = o
		return
	}
	n := t.N + o.N
	d := o.mean - t.mean
	t.m2 += o.m2 + d*d*float64(t.N)*float64(o.N)/float64(n)
	t.mean += d * float64(o.N) / float64(n)
	t.Total += o.Total
	t.Min = math.Min(t.Min, o.Min)
	t.Max = math.Max(t.Max, o.Max)
	t.N = n
}

// Merge combines the entries of several proxies into one entry per
// statement: counts and totals add, timings combine exactly, the access
// paths' counts add, the samples join (up to MaxSamples, the first set's
// first), and the text and plan shape are the first set's where it has the
// statement (the asking proxy passes its own first). The result is ordered as Entries orders.
func Merge(sets ...[]Entry) []Entry {
	byKey := map[Key]*Entry{}
	var keys []Key
	for _, set := range sets {
		for i := range set {
			e := &set[i]
			m := byKey[e.Key]
			if m == nil {
				c := e.clone()
				byKey[e.Key] = &c
				keys = append(keys, e.Key)
				continue
			}
			m.Plan.merge(e.Plan)
			m.Exec.merge(e.Exec)
			m.Rows += e.Rows
			m.ItemsRead += e.ItemsRead
			m.Requests += e.Requests
			m.Capacity += e.Capacity
			m.FullScans += e.FullScans
			for p, n := range e.Paths {
				m.Paths[p] += n
			}
			if m.Shape == "" {
				m.Shape = e.Shape
			}
			// Samples from every proxy, up to the store's number.
			for _, smp := range e.Samples {
				if len(m.Samples) < MaxSamples {
					m.Samples = append(m.Samples, smp)
				}
			}
			if e.First.Before(m.First) {
				m.First = e.First
			}
			if e.Last.After(m.Last) {
				m.Last = e.Last
			}
		}
	}
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		out = append(out, *byKey[k])
	}
	sortEntries(out)
	return out
}
