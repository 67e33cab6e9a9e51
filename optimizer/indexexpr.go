package optimizer

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// Expression and partial indexes in the access-path rules. The rules
// reason about bounds on columns; an index expression becomes one more
// column of the table for them. indexView extends the table with a pseudo
// column per distinct expression of its public indexes, rewrites the
// scan's conjuncts so that each occurrence of an index expression (the
// same expression after binding: ir.ExprKey) reads that column, and gives
// the rules the indexes with their expression keys on those columns. A
// sargable comparison of lower(email) then bounds the pseudo column as
// email = 'x' bounds email, and every rule (point gets on a unique index,
// prefixes, Z-order boxes, covering) applies unchanged. A partial index
// joins the candidates only when the scan's conjuncts imply its predicate
// (ir.Implies); the others are named among the rejected.
//
// The conjuncts as written stay the scan's filter: a residual conjunct is
// evaluated on the table row, and one the key ranges enforce on a pseudo
// column is dropped like any enforced conjunct.
type indexView struct {
	ext *catalog.Table
	// orig maps each index the rules see to the table's own.
	orig map[*catalog.Index]*catalog.Index
	// conj are the filter's conjuncts, rew the same with index
	// expressions read from pseudo columns.
	conj, rew []ir.Expr
	// skipped names the partial indexes whose predicate is not implied.
	skipped []Rejection
	// derived is where the conjuncts gist indexes' boxes add to conj
	// begin (gistbounds.go, rangebounds.go): each is implied by a conjunct
	// before it, which stays the residual check, so none is one itself.
	derived int
	// rangeBoxes are, per range column a gist index covers, its box for
	// EXPLAIN, over the bounds' names.
	rangeBoxes map[int]string
	// exactBoxes maps a spatial conjunct (its index before derived) to
	// the derived conjuncts, [lo, hi) in conj, that are that conjunct
	// itself on every row of its gist index (gistBound.exact): a scan
	// whose box enforces all of them exactly need not check it again.
	exactBoxes map[int][2]int
	// What again reuses: the pseudo columns by ir.ExprKey, the gist
	// indexes whose boxes add conjuncts, and the partial indexes'
	// predicates with whether the conjuncts implied each.
	pseudo map[string]*ir.ColRef
	gists  []gistSource
	// keyRef maps each bound key expression to its pseudo column;
	// binaryKey says some key is a comparison (rewriteDerived).
	keyRef    map[ir.Expr]*ir.ColRef
	binaryKey bool
	preds     []ir.Expr
	implied   []bool
}

// newIndexView builds the view of s's table, or returns nil when it has
// no public expression or partial index.
func newIndexView(s *scanSpec, ctx *ir.EvalContext, opts Options) (*indexView, error) {
	t := s.Table
	plain := true
	for _, ix := range t.Indexes {
		plain = plain && (ix.State != catalog.StatePublic || ix.Plain())
	}
	if plain {
		return nil, nil
	}
	v := &indexView{orig: map[*catalog.Index]*catalog.Index{}, conj: ir.Conjuncts(s.Filter)}
	ext := *t
	ext.Columns = append([]catalog.Column(nil), t.Columns...)
	ext.Indexes = nil
	v.pseudo = map[string]*ir.ColRef{} // ir.ExprKey → the pseudo column
	v.keyRef = map[ir.Expr]*ir.ColRef{}
	gistCols := map[int]bool{}
	for _, ix := range t.Indexes {
		if ix.State != catalog.StatePublic || ix.Plain() {
			ext.Indexes = append(ext.Indexes, ix)
			v.orig[ix] = ix
			continue
		}
		bound, err := ir.BindIndex(t, ix)
		if err != nil {
			return nil, err
		}
		if bound.Pred != nil {
			implied := ir.Implies(v.conj, bound.Pred, ctx)
			v.preds = append(v.preds, bound.Pred)
			v.implied = append(v.implied, implied)
			if !implied {
				v.skipped = append(v.skipped, Rejection{Path: indexLabel(ix), Reason: "the query does not imply its predicate " + ix.Predicate})
				continue
			}
		}
		nix := *ix
		nix.Columns = append([]catalog.KeyColumn(nil), ix.Columns...)
		for i, e := range bound.Keys {
			if e == nil {
				continue
			}
			key := ir.ExprKey(e)
			ref, ok := v.pseudo[key]
			if !ok {
				ref = &ir.ColRef{Index: len(ext.Columns), Name: ix.Columns[i].Expr, Typ: e.Type()}
				v.pseudo[key] = ref
				// The attribute name matches no statistics: an expression
				// is estimated by the shape of its bounds.
				ext.Columns = append(ext.Columns, catalog.Column{Name: ix.Columns[i].Expr, Type: e.Type(), Attr: exprAttrPrefix + key})
			}
			nix.Columns[i].Column = ref.Index
			v.keyRef[e] = ref
			if _, ok := e.(*ir.Binary); ok {
				v.binaryKey = true
			}
		}
		ext.Indexes = append(ext.Indexes, &nix)
		v.orig[&nix] = ix
		if g := ix.Gist; g != nil && !g.Ordered() && !gistCols[g.Column] {
			gistCols[g.Column] = true
			v.gists = append(v.gists, gistSource{gist: g, keys: bound.Keys})
		}
	}
	v.derived = len(v.conj)
	v.ext = &ext
	v.rew = make([]ir.Expr, len(v.conj), len(v.conj)+4)
	for i, c := range v.conj {
		v.rew[i] = replaceExprs(c, v.pseudo)
	}
	v.deriveBoxes(t, ctx, opts)
	return v, nil
}

// gistSource is a gist index whose column's predicates bound its box's
// pseudo columns: the first such index of its column, with its bound keys.
type gistSource struct {
	gist *catalog.GistKey
	keys []ir.Expr
}

// deriveBoxes appends to v's conjuncts (and their rewrites) those its gist
// indexes' boxes follow from the conjuncts before v.derived with the
// values in ctx: spatial predicates on a column bound its x and y
// (gistbounds.go), range predicates its bounds (rangebounds.go).
func (v *indexView) deriveBoxes(t *catalog.Table, ctx *ir.EvalContext, opts Options) {
	filter := v.conj[:v.derived]
	var derived []ir.Expr
	v.rangeBoxes, v.exactBoxes = nil, nil
	for _, gb := range v.gists {
		g := gb.gist
		if typ := t.Columns[g.Column].Type; typ.IsRange() {
			box := rangeGistConjuncts(filter, g.Column, typ, gb.keys[0], gb.keys[1], ctx)
			derived = append(derived, box...)
			if len(box) > 0 {
				name := t.Columns[g.Column].Name
				shown := map[string]*ir.ColRef{
					ir.ExprKey(gb.keys[0]): {Name: "lower(" + name + ")"},
					ir.ExprKey(gb.keys[1]): {Name: "upper(" + name + ")"},
				}
				if v.rangeBoxes == nil {
					v.rangeBoxes = map[int]string{}
				}
				v.rangeBoxes[g.Column] = replaceExprs(andAll(box), shown).String()
			}
		} else if g.XZ != nil {
			// Over shapes, the code ranges of their XZ2 cells.
			derived = append(derived, xzConjuncts(filter, g.Column, gb.keys[0], *g.XZ, xzBudget(opts), ctx)...)
		} else {
			for _, b := range gistConjuncts(filter, g.Column, gb.keys[0], gb.keys[1], g.Geography, ctx) {
				if b.exact {
					if v.exactBoxes == nil {
						v.exactBoxes = map[int][2]int{}
					}
					at := v.derived + len(derived)
					v.exactBoxes[b.conjunct] = [2]int{at, at + len(b.bounds)}
				}
				derived = append(derived, b.bounds...)
			}
		}
	}
	v.conj = append(filter[:v.derived:v.derived], derived...)
	v.rew = v.rew[:v.derived]
	for _, c := range derived {
		v.rew = append(v.rew, v.rewriteDerived(c))
	}
}

// rewriteDerived is replaceExprs of a conjunct a gist box added: most are
// a bound key expression (the very expression) compared with a constant,
// rewritten without printing either to compare them, unless some index
// expression is itself a comparison.
func (v *indexView) rewriteDerived(c ir.Expr) ir.Expr {
	if b, ok := c.(*ir.Binary); ok && !v.binaryKey {
		if ref, ok := v.keyRef[b.L]; ok {
			if _, isConst := b.R.(*ir.Const); isConst {
				out := *b
				out.L = ref
				return &out
			}
		}
	}
	return replaceExprs(c, v.pseudo)
}

// again is the view v of the same scan for the values in ctx, reusing
// what does not depend on them (the pseudo columns, the conjuncts'
// rewrites): a generic plan's scan planned again (generic.go). nil when
// the values change which partial indexes the conjuncts imply.
func (v *indexView) again(t *catalog.Table, ctx *ir.EvalContext, opts Options) *indexView {
	for i, p := range v.preds {
		if ir.Implies(v.conj[:v.derived], p, ctx) != v.implied[i] {
			return nil
		}
	}
	out := *v
	out.rew = append(make([]ir.Expr, 0, len(v.rew)), v.rew[:v.derived]...)
	out.deriveBoxes(t, ctx, opts)
	return &out
}

// exactBox returns the derived conjuncts, [lo, hi) in conj, that are
// conjunct i itself on its gist index's rows, if any.
func (v *indexView) exactBox(i int) ([2]int, bool) {
	if v == nil || i >= v.derived {
		return [2]int{}, false
	}
	r, ok := v.exactBoxes[i]
	return r, ok
}

// replaceExprs returns e with every subexpression that is an index
// expression replaced by its pseudo column.
func replaceExprs(e ir.Expr, pseudo map[string]*ir.ColRef) ir.Expr {
	if len(pseudo) == 0 {
		return e
	}
	if _, isCol := e.(*ir.ColRef); !isCol {
		if ref, ok := pseudo[ir.ExprKey(e)]; ok {
			return ref
		}
	}
	kids := e.AppendChildren(nil)
	if len(kids) == 0 {
		return e
	}
	changed := false
	for i, k := range kids {
		if nk := replaceExprs(k, pseudo); nk != k {
			kids[i], changed = nk, true
		}
	}
	if !changed {
		return e
	}
	return e.WithChildren(kids)
}

// index returns the table's index the rules' ix stands for.
func (v *indexView) index(ix *catalog.Index) *catalog.Index {
	if v == nil || ix == nil {
		return ix
	}
	return v.orig[ix]
}

// xzBudget caps the code ranges of one spatial predicate on an XZ gist
// index (zorder.XZ2.Ranges): each is a key range, a seek where seeks are
// cheap (Pebble), a request where every range costs one (DynamoDB), which
// gets a Z-order path's budget.
func xzBudget(opts Options) int {
	switch {
	case opts.Caps.CheapSeek:
		return 256
	case opts.ZBudget > 0:
		return opts.ZBudget
	}
	return 64
}

// exprAttrPrefix begins the attribute name of a pseudo column, which no
// stored column can have.
const exprAttrPrefix = "\x00expr"

// isExprColumn reports whether c is an index expression's pseudo column.
func isExprColumn(c catalog.Column) bool { return strings.HasPrefix(c.Attr, exprAttrPrefix) }
