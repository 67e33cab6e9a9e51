package optimizer

import (
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/planner"
)

// Row expiry (catalog.TTL): every read of a table with a TTL gets the
// filter "TTL column IS NULL OR TTL column > now - ttl", before the logical
// rules run, so expired rows vanish from every query at the statement's
// instant whether or not the store has removed them yet, and the filter
// bounds the access path like any other predicate (a key or index led by
// the TTL column reads only live rows).

// logical prepares a plan for the physical build: WITH queries inlined
// (inline.go), expired rows hidden (their bodies' too), then the logical
// rules.
func (b *builder) logical(r planner.Rel) planner.Rel {
	return applyLogicalRules(expireRows(b.inlineCTEs(r), b.ctx.Now))
}

func expireRows(r planner.Rel, now time.Time) planner.Rel {
	if now.IsZero() {
		now = time.Now()
	}
	if s, ok := r.(*planner.Scan); ok {
		if s.Table.TTL == nil {
			return s
		}
		return &planner.Filter{Input: s, Pred: ttlPredicate(s, now)}
	}
	return planner.MapInputs(r, func(in planner.Rel) planner.Rel { return expireRows(in, now) })
}

// ttlPredicate is the filter keeping s's live rows at now.
func ttlPredicate(s *planner.Scan, now time.Time) planner.Expr {
	t := s.Table
	i := t.ColumnIndex(t.TTL.Column)
	c := t.Columns[i]
	col := &planner.ColRef{Index: i, Name: c.Name, Typ: c.Type}
	cutoff := t.TTL.Cutoff(now)
	var bound sqltypes.Value
	switch c.Type.Kind() {
	case sqltypes.KindDate:
		day := int64(24 * time.Hour / time.Microsecond)
		d := cutoff / day
		if cutoff%day != 0 && cutoff < 0 {
			d--
		}
		bound = sqltypes.Value{K: sqltypes.KindDate, I: d}
	default:
		bound = sqltypes.Value{K: c.Type.Kind(), I: cutoff}
	}
	return &planner.Binary{Op: planner.OpOr, Typ: sqltypes.TypeBool,
		L: &planner.IsNull{E: col},
		R: &planner.Binary{Op: planner.OpGt, L: col, R: &planner.Const{V: bound, Typ: c.Type}, Typ: sqltypes.TypeBool}}
}
