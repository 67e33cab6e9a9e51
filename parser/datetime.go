package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostgreSQL's date/time syntax that TiDB's grammar lacks:
//
//	EXTRACT(field FROM x)      → zp_extract('field', x)
//	x AT TIME ZONE z           → zp_at_time_zone(x, z)
//	INTERVAL '2' HOUR          → zp_cast('2', 'interval hour')
//
// and named arguments, make_interval(days => 3), become
// zp_arg('days', 3). The planner reads zp_extract, zp_at_time_zone and
// zp_arg back (ExtractFunc, AtTimeZoneFunc, NamedArgFunc) and names their
// columns as PostgreSQL does.

// ExtractFunc is what EXTRACT(field FROM x) becomes: zp_extract('field', x).
const ExtractFunc = "zp_extract"

// AtTimeZoneFunc is what x AT TIME ZONE z becomes: zp_at_time_zone(x, z).
const AtTimeZoneFunc = "zp_at_time_zone"

// NamedArgFunc marks an argument given by name: zp_arg('name', value).
const NamedArgFunc = "zp_arg"

// namedArg respells "name => value" at the => token i of a call's
// argument list (or "name := value", the obsolete spelling PostgreSQL
// still reads, its tokens : and = from i to last): the value runs to the
// next comma or closing parenthesis at its depth.
func (r *rewriter) namedArg(i, last int) error {
	n := i - 1
	if n < 1 || r.toks[n].kind != tkIdent && r.toks[n].kind != tkQIdent || !(r.toks[n-1].is("(") || r.toks[n-1].is(",") || r.toks[n-1].is("variadic")) {
		return r.syntaxErrorAt(i)
	}
	end, depth := -1, 0
	for k := last + 1; k < len(r.toks) && end < 0; k++ {
		switch {
		case r.toks[k].is("(") || r.toks[k].is("["):
			depth++
		case depth > 0 && (r.toks[k].is(")") || r.toks[k].is("]")):
			depth--
		case depth == 0 && (r.toks[k].is(",") || r.toks[k].is(")")):
			end = k
		}
	}
	if end < 0 || end == last+1 {
		return r.syntaxErrorAt(last + 1)
	}
	r.replace(n, NamedArgFunc+"('"+strings.ReplaceAll(r.toks[n].val, "'", "''")+"'")
	r.replace(i, ",")
	r.drop(i+1, last+1)
	r.ed[end].pre = ")" + r.ed[end].pre
	return nil
}

// extract respells EXTRACT(field FROM x) at token i (the word EXTRACT,
// followed by "("). The field is a word or a string constant.
func (r *rewriter) extract(i int) error {
	end := r.matching(i + 1)
	f := i + 2
	if end < 0 || f >= end {
		return nil // TiDB reports the malformed call
	}
	ft := r.toks[f]
	if (ft.kind != tkIdent && ft.kind != tkString && ft.kind != tkQIdent) || !r.peek(f+1, "from") {
		return r.syntaxErrorAt(f)
	}
	r.replace(i, ExtractFunc)
	r.replace(f, "'"+ft.val+"'")
	r.replace(f+1, ",")
	return nil
}

// intervalQualifier reads the field qualifier that may follow the string
// of an INTERVAL literal (INTERVAL '2' HOUR, INTERVAL '1 2:03' DAY TO
// MINUTE, INTERVAL '1.5' SECOND(3)) at token k, returning the type that
// carries it and the index of the qualifier's last token (k-1 when there
// is none).
func (r *rewriter) intervalQualifier(t sqltypes.Type, k int) (sqltypes.Type, int, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkIdent || !intervalFieldWords[r.toks[k].val] {
		return t, k - 1, nil
	}
	q, next, err := r.intervalType(k)
	if err != nil {
		return t, k - 1, err
	}
	if t.Scale > 0 && q.Scale == 0 {
		q.Scale = t.Scale // INTERVAL(3) '...' DAY TO SECOND keeps the precision
	}
	return q, next - 1, nil
}

// atTimeZone respells every x AT TIME ZONE z of the statement. It runs
// after the other rewrites, so both operands are complete: the left one is
// the primary expression ending before AT (casts included, as :: binds
// tighter), the right one the primary expression after ZONE with its
// casts. AT is left-associative, so a chain nests from the left.
func (r *rewriter) atTimeZone(head int) error {
	for i := head; i+2 < len(r.toks); i++ {
		if r.ed[i].done || !r.toks[i].is("at") || !r.peek(i+1, "time") || !r.peek(i+2, "zone") {
			continue
		}
		start, ok := r.primaryStart(i-1, head)
		if !ok {
			return r.syntaxErrorAt(i)
		}
		end, ok := r.primaryEnd(i + 3)
		if !ok {
			return r.syntaxErrorAt(i + 3)
		}
		r.ed[start].pre = AtTimeZoneFunc + "(" + r.ed[start].pre
		r.replace(i, ",")
		r.drop(i+1, i+3)
		r.ed[end].post += ")"
		r.primStart[end] = start
		i = end
	}
	return nil
}
