package session

import (
	"encoding/json"

	"github.com/zproxy/zproxy/advisor"
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/stmtstats"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// Statement statistics travel between proxies with their workload
// samples (the advisor's records of which bounds a statement's reads
// had), so the index advisor on any proxy reads every proxy's workload.
// A sample names tables and indexes by ID and name, and its bounds by
// their text in the column's type; the receiving proxy resolves them in
// its own schema snapshot and drops what no longer resolves (a sample is
// advice's input, never a result's).

// peerEntry is a statement's statistics as proxies exchange them.
type peerEntry struct {
	stmtstats.Entry
	Samples []wireSample `json:"samples,omitempty"`
}

type wireSample struct {
	Uses    []wireUse `json:"uses,omitempty"`
	Written uint64    `json:"written,omitempty"` // table ID
	Rows    int64     `json:"rows,omitempty"`
}

type wireUse struct {
	Table      uint64                 `json:"table"`
	Bounds     map[int][]wireInterval `json:"bounds,omitempty"`
	Needed     []int                  `json:"needed,omitempty"`
	Order      []ir.SortKey           `json:"order,omitempty"`
	Limit      int                    `json:"limit,omitempty"`
	Index      string                 `json:"index,omitempty"`
	Method     optimizer.Method       `json:"method,omitempty"`
	Correlated bool                   `json:"correlated,omitempty"`
}

type wireInterval struct {
	Lo, Hi       *string `json:",omitempty"`
	LoInc, HiInc bool    `json:",omitempty"`
	LoUnb, HiUnb bool    `json:",omitempty"`
}

// encodeEntries encodes statement statistics with their samples.
func encodeEntries(entries []stmtstats.Entry) json.RawMessage {
	out := make([]peerEntry, len(entries))
	for i, e := range entries {
		out[i].Entry = e
		for _, s := range e.Samples {
			if as, ok := s.(*advisor.Sample); ok {
				out[i].Samples = append(out[i].Samples, encodeSample(as))
			}
		}
	}
	b, _ := json.Marshal(out)
	return b
}

func encodeSample(s *advisor.Sample) wireSample {
	w := wireSample{Rows: s.Rows}
	if s.Written != nil {
		w.Written = s.Written.ID
	}
	for _, u := range s.Uses {
		if u == nil || u.Table == nil {
			continue
		}
		wu := wireUse{Table: u.Table.ID, Needed: u.Needed, Order: u.Order, Limit: u.Limit, Method: u.Method, Correlated: u.Correlated}
		if u.Index != nil {
			wu.Index = u.Index.Name
		}
		for col, set := range u.Bounds {
			if wu.Bounds == nil {
				wu.Bounds = map[int][]wireInterval{}
			}
			if set == nil {
				wu.Bounds[col] = nil
				continue
			}
			ivs := make([]wireInterval, 0, len(set))
			for _, iv := range set {
				wi := wireInterval{LoInc: iv.LoInc, HiInc: iv.HiInc, LoUnb: iv.LoUnb, HiUnb: iv.HiUnb}
				if !iv.LoUnb {
					t := sqltypes.FormatText(iv.Lo)
					wi.Lo = &t
				}
				if !iv.HiUnb {
					t := sqltypes.FormatText(iv.Hi)
					wi.Hi = &t
				}
				ivs = append(ivs, wi)
			}
			wu.Bounds[col] = ivs
		}
		w.Uses = append(w.Uses, wu)
	}
	return w
}

// decodeEntries reads another proxy's encodeEntries, resolving samples in
// snap (nil: samples are dropped).
func decodeEntries(b json.RawMessage, snap *catalog.Snapshot) []stmtstats.Entry {
	var in []peerEntry
	if json.Unmarshal(b, &in) != nil {
		return nil
	}
	out := make([]stmtstats.Entry, len(in))
	for i, pe := range in {
		out[i] = pe.Entry
		if snap == nil {
			continue
		}
		for _, ws := range pe.Samples {
			if s := decodeSample(ws, snap); s != nil {
				out[i].Samples = append(out[i].Samples, s)
			}
		}
	}
	return out
}

// decodeSample resolves a sample in snap; nil when a table it names is gone
// or a bound no longer reads in its column's type.
func decodeSample(w wireSample, snap *catalog.Snapshot) *advisor.Sample {
	s := &advisor.Sample{Rows: w.Rows}
	if w.Written != 0 {
		if s.Written = snap.TableByID(w.Written); s.Written == nil {
			return nil
		}
	}
	for _, wu := range w.Uses {
		t := snap.TableByID(wu.Table)
		if t == nil {
			return nil
		}
		u := &optimizer.TableUse{Table: t, Needed: wu.Needed, Order: wu.Order, Limit: wu.Limit, Method: wu.Method, Correlated: wu.Correlated}
		if wu.Index != "" {
			for _, ix := range t.Indexes {
				if ix.Name == wu.Index {
					u.Index = ix
				}
			}
		}
		for col, ivs := range wu.Bounds {
			if col < 0 || col >= len(t.Columns) {
				return nil
			}
			if u.Bounds == nil {
				u.Bounds = map[int]optimizer.ValueSet{}
			}
			if ivs == nil {
				u.Bounds[col] = nil
				continue
			}
			typ := t.Columns[col].Type
			set := make(optimizer.ValueSet, 0, len(ivs))
			for _, wi := range ivs {
				iv := optimizer.Interval{LoInc: wi.LoInc, HiInc: wi.HiInc, LoUnb: wi.LoUnb, HiUnb: wi.HiUnb}
				var err error
				if wi.Lo != nil {
					if iv.Lo, err = sqltypes.ParseText(typ, *wi.Lo); err != nil {
						return nil
					}
				}
				if wi.Hi != nil {
					if iv.Hi, err = sqltypes.ParseText(typ, *wi.Hi); err != nil {
						return nil
					}
				}
				set = append(set, iv)
			}
			u.Bounds[col] = set
		}
		s.Uses = append(s.Uses, u)
	}
	return s
}
