package parser

import "github.com/pingcap/tidb/pkg/parser/ast"

// OrdinalPosition is where the client wrote the ORDER BY or GROUP BY
// ordinal p (ORDER BY 2), for PostgreSQL's "position is not in select
// list" error at it; 0 when unknown.
func (s *Statement) OrdinalPosition(p *ast.PositionExpr) int {
	return s.ordinals[p]
}

// placeOrdinals records where each ordinal of the statement's ORDER BY,
// GROUP BY and PARTITION BY lists stands: TiDB turns the integer of such
// an item into an ast.PositionExpr without its offset. The items that are
// an integer alone are found in the tokens, in text order, and paired
// with the PositionExprs in the order the AST visits them (which follows
// the text); when the counts differ (a part parsed apart, a rewritten
// list), none is recorded.
func (r *rewriter) placeOrdinals(st *Statement, head int) {
	var at []int
	depth := 0
	var lists []int // the paren depths of the by-lists being read
	for i := head; i < len(r.toks); i++ {
		t := r.toks[i]
		switch {
		case t.is("("):
			depth++
			continue
		case t.is(")"):
			for len(lists) > 0 && lists[len(lists)-1] >= depth {
				lists = lists[:len(lists)-1]
			}
			depth--
			continue
		case t.is("by") && i > head && (r.toks[i-1].is("order") || r.toks[i-1].is("group") || r.toks[i-1].is("partition")):
			lists = append(lists, depth)
		case t.is(",") && len(lists) > 0 && lists[len(lists)-1] == depth:
		default:
			continue
		}
		// An item starts at i+1: an ordinal when it is an integer alone.
		k := i + 1
		if k >= len(r.toks) || r.toks[k].kind != tkNumber || !isUnsignedInt(r.toks[k].val) {
			continue
		}
		if k+1 < len(r.toks) {
			n := r.toks[k+1]
			if !(n.is(",") || n.is(")") || n.is(";") || n.kind == tkIdent && ordinalFollowers[n.val]) {
				continue
			}
		}
		at = append(at, r.pos(k))
	}
	if len(at) == 0 || st.AST == nil {
		return
	}
	var nodes []*ast.PositionExpr
	st.AST.Accept(ordinalCollector{&nodes})
	if len(nodes) != len(at) {
		return
	}
	st.ordinals = make(map[*ast.PositionExpr]int, len(at))
	for i, n := range nodes {
		st.ordinals[n] = at[i]
	}
}

// ordinalFollowers are the words that may follow an ordinal item.
var ordinalFollowers = map[string]bool{
	"asc": true, "desc": true, "nulls": true, "limit": true, "offset": true, "fetch": true, "for": true,
	"having": true, "window": true, "union": true, "intersect": true, "except": true, "order": true,
	"rows": true, "range": true, "groups": true, "returning": true,
}

// ordinalCollector gathers the PositionExprs of an AST in visiting order.
type ordinalCollector struct{ nodes *[]*ast.PositionExpr }

func (v ordinalCollector) Enter(n ast.Node) (ast.Node, bool) {
	if p, ok := n.(*ast.PositionExpr); ok && p.P == nil {
		*v.nodes = append(*v.nodes, p)
	}
	return n, false
}

func (v ordinalCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }
