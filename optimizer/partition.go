package optimizer

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Partition pruning. The planner reads a partitioned table as the UNION
// ALL of its leaves' scans (each ir.Scan carrying the partition set),
// and the logical rules push the query's filter into every branch. Here
// each branch's filter is read as ranges of its columns and the leaves it
// excludes (catalog.PartitionSet.Excludes) are left out of the plan: the
// Append reads only the partitions that may hold rows, and says so. The
// ranges use the execution's parameter values; a plan with an Append is
// never a generic plan (genericNode), so each execution prunes with its
// own values.

// PartitionsRead is what EXPLAIN says of a pruned read of a partitioned
// table: its name, and how many of its leaves are read.
type PartitionsRead struct {
	Root        string
	Read, Total int
}

func (p *PartitionsRead) describe(d *Description) {
	d.add("partitions", "%d of %d read (%d pruned by the filter)", p.Read, p.Total, p.Total-p.Read)
}

// planPartitions plans a UNION ALL of a partitioned table's leaf scans
// with pruning; ok is false for any other set operation.
func (b *builder) planPartitions(n *ir.SetOp) (Node, bool, error) {
	if n.Op != ir.Union || !n.All {
		return nil, false, nil
	}
	branches := unionBranches(n)
	var ps *catalog.PartitionSet
	for _, br := range branches {
		s, _ := partitionBranch(br)
		if s == nil {
			return nil, false, nil
		}
		if ps == nil {
			ps = s.Partitions
		} else if s.Partitions != ps {
			return nil, false, nil
		}
	}
	var kept []ir.Rel
	exprs := partitionKeyExprs(ps)
	for _, br := range branches {
		s, conj := partitionBranch(br)
		if !ps.Excludes(s.Table, b.keyRanges(exprs, s, conj)) {
			kept = append(kept, br)
		}
	}
	read := &PartitionsRead{Root: ps.Root.BareName(), Read: len(kept), Total: len(branches)}
	switch len(kept) {
	case 0:
		return &Values{Cols: n.Cols, Pruned: true}, true, nil
	case 1:
		node, _, err := b.build(kept[0], request{})
		if err != nil {
			return nil, true, err
		}
		if s := firstScan(node); s != nil {
			s.Partitions = read
		}
		return node, true, nil
	}
	var out Node
	for _, br := range kept {
		node, _, err := b.build(br, request{})
		if err != nil {
			return nil, true, err
		}
		if out == nil {
			out = node
			continue
		}
		out = &SetOp{Op: ir.Union, All: true, Left: out, Right: node, Cols: n.Cols}
	}
	out.(*SetOp).Partitions = read
	return out, true, nil
}

// unionBranches flattens a tree of UNION ALLs into its branches.
func unionBranches(r ir.Rel) []ir.Rel {
	if s, ok := r.(*ir.SetOp); ok && s.Op == ir.Union && s.All {
		return append(unionBranches(s.Left), unionBranches(s.Right)...)
	}
	return []ir.Rel{r}
}

// partitionBranch returns the leaf scan of a branch (a scan, filtered or
// not, of a partitioned table's leaf) and its filter's conjuncts; nil
// for any other relation.
func partitionBranch(r ir.Rel) (*ir.Scan, []ir.Expr) {
	var conj []ir.Expr
	if f, ok := r.(*ir.Filter); ok {
		conj, r = ir.Conjuncts(f.Pred), f.Input
	}
	if s, ok := r.(*ir.Scan); ok && s.Partitions != nil {
		return s, conj
	}
	return nil, nil
}

// firstScan returns the first Scan at or below n, following first inputs.
func firstScan(n Node) *Scan {
	for n != nil {
		if s, ok := n.(*Scan); ok {
			return s
		}
		in := n.Inputs()
		if len(in) == 0 {
			return nil
		}
		n = in[0]
	}
	return nil
}

// keyRanges reads the conjuncts key op constant and key IS NULL over
// the scan's columns as ranges, where key is a column or an expression
// of the partition set's keys (the same expression after binding:
// ir.ExprKey), so WHERE lower(name) = 'x' prunes a table partitioned by
// lower(name) (exprs: partitionKeyExprs). Only constants of the key's
// kind count, which compare with its bound values.
func (b *builder) keyRanges(exprs map[string]string, s *ir.Scan, conj []ir.Expr) catalog.KeyRanges {
	out := catalog.KeyRanges{Cols: map[int]catalog.KeyRange{}, Exprs: map[string]catalog.KeyRange{}}
	cols := s.Columns()
	// key reads e as a key: its range, its kind and where to keep it.
	key := func(e ir.Expr) (catalog.KeyRange, sqltypes.Kind, func(catalog.KeyRange), bool) {
		if cr, ok := e.(*ir.ColRef); ok {
			if cr.Index >= len(cols) {
				return catalog.KeyRange{}, 0, nil, false
			}
			return out.Cols[cr.Index], cols[cr.Index].Type.Kind(), func(r catalog.KeyRange) { out.Cols[cr.Index] = r }, true
		}
		if len(exprs) == 0 {
			return catalog.KeyRange{}, 0, nil, false
		}
		text, ok := exprs[ir.ExprKey(e)]
		if !ok {
			return catalog.KeyRange{}, 0, nil, false
		}
		return out.Exprs[text], e.Type().Kind(), func(r catalog.KeyRange) { out.Exprs[text] = r }, true
	}
	for _, c := range conj {
		if n, ok := c.(*ir.IsNull); ok && !n.Neg {
			if r, _, set, ok := key(n.E); ok {
				r.IsNull = true
				set(r)
			}
			continue
		}
		bin, ok := c.(*ir.Binary)
		if !ok {
			continue
		}
		op, col, val := bin.Op, bin.L, bin.R
		if !ir.IsStatementConstant(val) {
			op, col, val = flip(op), bin.R, bin.L
		}
		if !ir.IsStatementConstant(val) {
			continue
		}
		r, kind, set, ok := key(col)
		if !ok {
			continue
		}
		ctx := b.ctx
		if ctx == nil {
			ctx = &ir.EvalContext{}
		}
		v, err := val.Eval(ctx, nil)
		if err != nil || v.IsNull() || v.K != kind {
			continue
		}
		switch op {
		case ir.OpEq:
			r.Eq = &v
		case ir.OpLt, ir.OpLe:
			if r.Hi == nil || sqltypes.Compare(v, *r.Hi) < 0 {
				r.Hi, r.HiIncl = &v, op == ir.OpLe
			}
		case ir.OpGt, ir.OpGe:
			if r.Lo == nil || sqltypes.Compare(v, *r.Lo) > 0 {
				r.Lo, r.LoIncl = &v, op == ir.OpGe
			}
		default:
			continue
		}
		set(r)
	}
	return out
}

// partitionKeyExprs maps the expression parts of the partition keys of
// ps's root and partitioned members, by ir.ExprKey of the bound
// expression, to their stored text (catalog.KeyRanges.Exprs). Every
// member has the root's columns, so an expression binds alike over a
// leaf's scan.
func partitionKeyExprs(ps *catalog.PartitionSet) map[string]string {
	var out map[string]string
	for _, t := range append([]*catalog.Table{ps.Root}, ps.Members...) {
		if !t.IsPartitioned() {
			continue
		}
		for i, c := range t.Partitioning.Columns {
			if c >= 0 {
				continue
			}
			e, err := ir.BindPartitionExpr(t, i)
			if err != nil {
				continue // no pruning on it; routing reports the error
			}
			if out == nil {
				out = map[string]string{}
			}
			out[ir.ExprKey(e)] = t.Partitioning.Exprs[i]
		}
	}
	return out
}
