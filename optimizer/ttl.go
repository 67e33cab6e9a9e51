package optimizer

import (
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
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
func (b *builder) logical(r ir.Rel) ir.Rel {
	return applyLogicalRules(expireRows(b.inlineCTEs(r), b.ctx.Now))
}

func expireRows(r ir.Rel, now time.Time) ir.Rel {
	if now.IsZero() {
		now = time.Now()
	}
	if s, ok := r.(*ir.Scan); ok {
		if s.Table.TTL == nil {
			return s
		}
		return &ir.Filter{Input: s, Pred: ttlPredicate(s, now)}
	}
	return ir.MapInputs(r, func(in ir.Rel) ir.Rel { return expireRows(in, now) })
}

// ttlPredicate is the filter keeping s's live rows at now.
func ttlPredicate(s *ir.Scan, now time.Time) ir.Expr {
	t := s.Table
	i := t.ColumnIndex(t.TTL.Column)
	c := t.Columns[i]
	col := &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}
	cutoff := t.TTL.Cutoff(now)
	var bound sqltypes.Value
	switch c.Type.Kind() {
	case sqltypes.KindDate:
		bound = sqltypes.Value{K: sqltypes.KindDate, I: sqltypes.TimestampToDate(cutoff)}
	default:
		bound = sqltypes.Value{K: c.Type.Kind(), I: cutoff}
	}
	return &ir.Binary{Op: ir.OpOr, Typ: sqltypes.TypeBool,
		L: &ir.IsNull{E: col},
		R: &ir.Binary{Op: ir.OpGt, L: col, R: &ir.Const{V: bound, Typ: c.Type}, Typ: sqltypes.TypeBool}}
}
