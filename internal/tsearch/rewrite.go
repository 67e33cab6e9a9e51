package tsearch

import (
	"bytes"
	"hash/crc32"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Rewrite is ts_rewrite(query, target, substitute): every occurrence of
// target in query replaced by substitute (dropped when substitute is
// empty), as PostgreSQL's tsquery_rewrite does it. The queries become
// n-ary trees (AND and OR flattened), their operands compared by the
// legacy CRC-32 of their text, then the text (not their weights or prefix
// marks), and the children of AND and OR sorted by that order, so that an
// AND or OR matches a target holding a subset of its children; the result
// is made binary again as QTNBinary does, which fixes the order PostgreSQL
// prints.
func Rewrite(query, target, subst *sqltypes.TSQueryValue) *sqltypes.TSQueryValue {
	if query.Root == nil || target.Root == nil {
		return query
	}
	tree := prepareQTN(query.Root)
	tree = findSubquery(tree, prepareQTN(target.Root), substituteQTN(subst))
	return fromQTN(tree)
}

// RewritePair is one (target, substitute) row of ts_rewrite's query.
type RewritePair struct {
	Target, Substitute *sqltypes.TSQueryValue
}

// RewriteAll is ts_rewrite(query, sql): the pairs applied in turn to one
// n-ary tree, as tsquery_rewrite_query does (a later pair may rewrite an
// earlier one's substitute: the marks that keep a substitute from being
// searched again last for one pair, after which the tree is flattened and
// sorted again, so the query form prints differently from the
// three-argument one even for a single pair). Pairs with an empty target are
// skipped; once the whole query is removed, the rest are not looked at.
func RewriteAll(query *sqltypes.TSQueryValue, pairs []RewritePair) *sqltypes.TSQueryValue {
	if query.Root == nil {
		return query
	}
	tree := prepareQTN(query.Root)
	for _, p := range pairs {
		if tree == nil {
			break
		}
		if p.Target.Root == nil {
			continue
		}
		// Ready the tree for the next pair, as PostgreSQL does: the
		// substitutes unmarked, flattened and sorted with the rest.
		if tree = findSubquery(tree, prepareQTN(p.Target.Root), substituteQTN(p.Substitute)); tree != nil {
			tree.clearNoChange()
			tree.ternary()
			tree.sort()
		}
	}
	return fromQTN(tree)
}

// prepareQTN is a query or target as QTNode tree: n-ary and sorted.
func prepareQTN(n *sqltypes.TSQueryNode) *qtNode {
	q := toQTN(n)
	q.ternary()
	q.sort()
	return q
}

// substituteQTN is a substitute as QTNode tree as written (nil when empty).
func substituteQTN(s *sqltypes.TSQueryValue) *qtNode {
	if s.Root == nil {
		return nil
	}
	return toQTN(s.Root)
}

// fromQTN is the rewritten tree as a tsquery, binary again (empty when
// everything was removed).
func fromQTN(tree *qtNode) *sqltypes.TSQueryValue {
	if tree == nil {
		return &sqltypes.TSQueryValue{}
	}
	tree.binary()
	return &sqltypes.TSQueryValue{Root: tree.toNode()}
}

// qtNode is PostgreSQL's QTNode: an n-ary tsquery node, with an operand's
// CRC and the bit signature of the operands below.
type qtNode struct {
	n        sqltypes.TSQueryNode // the operator or operand, without children
	crc      int32
	sign     uint32
	child    []*qtNode
	noChange bool // QTN_NOCHANGE: a substitute, not searched again
}

// legacyCRC is PostgreSQL's legacy CRC-32 (INIT/COMP/FIN_LEGACY_CRC32):
// the reflected table driven from the top byte, as tsquery operands'
// valcrc is computed.
func legacyCRC(s string) int32 {
	crc := ^uint32(0)
	for i := 0; i < len(s); i++ {
		crc = crc32.IEEETable[byte(crc>>24)^s[i]] ^ (crc << 8)
	}
	return int32(^crc)
}

// toQTN is QT2QTN: child 0 is the right operand (the next item in the
// query's Polish order), child 1 the left.
func toQTN(n *sqltypes.TSQueryNode) *qtNode {
	q := &qtNode{n: *n}
	q.n.Left, q.n.Right = nil, nil
	if n.Op == sqltypes.TSVal {
		q.crc = legacyCRC(n.Word)
		q.sign = 1 << (uint32(q.crc) % 32)
		return q
	}
	q.child = append(q.child, toQTN(n.Right))
	if n.Op != sqltypes.TSNot {
		q.child = append(q.child, toQTN(n.Left))
	}
	for _, c := range q.child {
		q.sign |= c.sign
	}
	return q
}

// toNode is QTN2QT for a binary tree.
func (q *qtNode) toNode() *sqltypes.TSQueryNode {
	n := q.n
	if len(q.child) > 0 {
		n.Right = q.child[0].toNode()
	}
	if len(q.child) > 1 {
		n.Left = q.child[1].toNode()
	}
	return &n
}

func (q *qtNode) isOp() bool { return q.n.Op != sqltypes.TSVal }

// ternary is QTNTernary: nested ANDs (ORs) become one n-ary AND (OR).
func (q *qtNode) ternary() {
	if !q.isOp() {
		return
	}
	for _, c := range q.child {
		c.ternary()
	}
	if q.n.Op != sqltypes.TSAnd && q.n.Op != sqltypes.TSOr {
		return
	}
	var out []*qtNode
	for _, c := range q.child {
		if c.isOp() && c.n.Op == q.n.Op {
			out = append(out, c.child...)
		} else {
			out = append(out, c)
		}
	}
	q.child = out
}

// binary is QTNBinary: an n-ary node becomes nested binary ones, each new
// node taking the first two children and the last child moving second.
func (q *qtNode) binary() {
	if !q.isOp() {
		return
	}
	for _, c := range q.child {
		c.binary()
	}
	for len(q.child) > 2 {
		nn := &qtNode{n: sqltypes.TSQueryNode{Op: q.n.Op}, child: []*qtNode{q.child[0], q.child[1]}}
		nn.sign = nn.child[0].sign | nn.child[1].sign
		last := len(q.child) - 1
		q.child[0], q.child[1] = nn, q.child[last]
		q.child = q.child[:last]
	}
}

// sort is QTNSort: children of every node but a phrase in compareQTN's
// order.
func (q *qtNode) sort() {
	if !q.isOp() {
		return
	}
	for _, c := range q.child {
		c.sort()
	}
	if len(q.child) > 1 && q.n.Op != sqltypes.TSPhrase {
		pgQsort(q.child, compareQTN)
	}
}

// compareQTN is QTNodeCompare: operators before operands; operators by
// code (higher first), child count (more first), children, a phrase's
// distance (larger first); operands by CRC (higher first, as int32), then
// text.
func compareQTN(a, b *qtNode) int {
	if a.isOp() != b.isOp() {
		if a.isOp() {
			return -1
		}
		return 1
	}
	if a.isOp() {
		if a.n.Op != b.n.Op {
			return cmpDesc(int(a.n.Op), int(b.n.Op))
		}
		if len(a.child) != len(b.child) {
			return cmpDesc(len(a.child), len(b.child))
		}
		for i := range a.child {
			if c := compareQTN(a.child[i], b.child[i]); c != 0 {
				return c
			}
		}
		if a.n.Op == sqltypes.TSPhrase && a.n.Distance != b.n.Distance {
			return cmpDesc(a.n.Distance, b.n.Distance)
		}
		return 0
	}
	if a.crc != b.crc {
		return cmpDesc(int(a.crc), int(b.crc))
	}
	return bytes.Compare([]byte(a.n.Word), []byte(b.n.Word))
}

// cmpDesc orders larger first.
func cmpDesc(a, b int) int {
	if a > b {
		return -1
	}
	return 1
}

// eqQTN is QTNEq.
func eqQTN(a, b *qtNode) bool { return a.sign == b.sign && compareQTN(a, b) == 0 }

// copyQTN is QTNCopy.
func (q *qtNode) copyQTN() *qtNode {
	c := *q
	c.child = make([]*qtNode, len(q.child))
	for i, ch := range q.child {
		c.child[i] = ch.copyQTN()
	}
	if q.child == nil {
		c.child = nil
	}
	return &c
}

// substitute is a fresh copy of subs marked not to be searched, or nil.
func substitute(subs *qtNode) *qtNode {
	if subs == nil {
		return nil
	}
	c := subs.copyQTN()
	c.noChange = true
	return c
}

// findEq is findeq: node replaced when it equals ex or, for an AND or OR,
// when ex's children are a subset of node's (matched in one pass over
// both sorted lists).
func findEq(node, ex, subs *qtNode, found *bool) *qtNode {
	if node.sign&ex.sign != ex.sign || node.isOp() != ex.isOp() || node.noChange {
		return node
	}
	if !node.isOp() {
		if node.crc == ex.crc && eqQTN(node, ex) {
			*found = true
			return substitute(subs)
		}
		return node
	}
	if node.n.Op != ex.n.Op {
		return node
	}
	switch {
	case len(node.child) == len(ex.child):
		if eqQTN(node, ex) {
			*found = true
			return substitute(subs)
		}
	case len(node.child) > len(ex.child) && len(ex.child) > 0:
		matched := make([]bool, len(node.child))
		n, i, j := 0, 0, 0
		for i < len(node.child) && j < len(ex.child) {
			c := compareQTN(node.child[i], ex.child[j])
			switch {
			case c == 0:
				matched[i] = true
				n++
				i++
				j++
			case c < 0:
				i++
			default:
				j = len(ex.child) + 1 // ex's child has no match
			}
		}
		if n == len(ex.child) {
			var kept []*qtNode
			for k, c := range node.child {
				if !matched[k] {
					kept = append(kept, c)
				}
			}
			if s := substitute(subs); s != nil {
				kept = append(kept, s)
			}
			node.child = kept
			node.sort()
			*found = true
		}
	}
	return node
}

// doFindSubquery is dofindsubquery: replacements at the node, else in its
// children, dropping children replaced by nothing and a node left with
// none (or with one, unless it is a NOT: the child takes its place).
func doFindSubquery(root, ex, subs *qtNode, found *bool) *qtNode {
	root = findEq(root, ex, subs, found)
	if root == nil || root.noChange || !root.isOp() {
		return root
	}
	kept := root.child[:0]
	for _, c := range root.child {
		if c = doFindSubquery(c, ex, subs, found); c != nil {
			kept = append(kept, c)
		}
	}
	root.child = kept
	switch {
	case len(root.child) == 0:
		return nil
	case len(root.child) == 1 && root.n.Op != sqltypes.TSNot:
		return root.child[0]
	}
	return root
}

// findSubquery is findsubquery.
func findSubquery(root, ex, subs *qtNode) *qtNode {
	found := false
	return doFindSubquery(root, ex, subs, &found)
}

// pgQsort sorts s as PostgreSQL's qsort (src/include/lib/sort_template.h)
// does, so that children comparing equal (one word under different weights)
// end in PostgreSQL's order: insertion sort below seven elements, a
// presorted check, median-of-three pivots (ninther past forty) and
// Bentley-McIlroy three-way partitioning.
func pgQsort(s []*qtNode, cmp func(a, b *qtNode) int) {
	swapn := func(i, j, n int) {
		for k := 0; k < n; k++ {
			s[i+k], s[j+k] = s[j+k], s[i+k]
		}
	}
	med3 := func(a, b, c int) int {
		if cmp(s[a], s[b]) < 0 {
			if cmp(s[b], s[c]) < 0 {
				return b
			}
			if cmp(s[a], s[c]) < 0 {
				return c
			}
			return a
		}
		if cmp(s[b], s[c]) > 0 {
			return b
		}
		if cmp(s[a], s[c]) < 0 {
			return a
		}
		return c
	}
	a, n := 0, len(s)
	for {
		if n < 7 {
			for pm := a + 1; pm < a+n; pm++ {
				for pl := pm; pl > a && cmp(s[pl-1], s[pl]) > 0; pl-- {
					s[pl], s[pl-1] = s[pl-1], s[pl]
				}
			}
			return
		}
		presorted := true
		for pm := a + 1; pm < a+n; pm++ {
			if cmp(s[pm-1], s[pm]) > 0 {
				presorted = false
				break
			}
		}
		if presorted {
			return
		}
		pm := a + n/2
		if n > 7 {
			pl, pn := a, a+n-1
			if n > 40 {
				d := n / 8
				pl = med3(pl, pl+d, pl+2*d)
				pm = med3(pm-d, pm, pm+d)
				pn = med3(pn-2*d, pn-d, pn)
			}
			pm = med3(pl, pm, pn)
		}
		s[a], s[pm] = s[pm], s[a]
		pa, pb := a+1, a+1
		pc, pd := a+n-1, a+n-1
		for {
			for pb <= pc {
				r := cmp(s[pb], s[a])
				if r > 0 {
					break
				}
				if r == 0 {
					s[pa], s[pb] = s[pb], s[pa]
					pa++
				}
				pb++
			}
			for pb <= pc {
				r := cmp(s[pc], s[a])
				if r < 0 {
					break
				}
				if r == 0 {
					s[pc], s[pd] = s[pd], s[pc]
					pd--
				}
				pc--
			}
			if pb > pc {
				break
			}
			s[pb], s[pc] = s[pc], s[pb]
			pb++
			pc--
		}
		pn := a + n
		d1 := min(pa-a, pb-pa)
		swapn(a, pb-d1, d1)
		d1 = min(pd-pc, pn-pd-1)
		swapn(pb, pn-d1, d1)
		d1, d2 := pb-pa, pd-pc
		if d1 <= d2 {
			if d1 > 1 {
				pgQsort(s[a:a+d1], cmp)
			}
			if d2 <= 1 {
				return
			}
			a, n = pn-d2, d2
		} else {
			if d2 > 1 {
				pgQsort(s[pn-d2:pn], cmp)
			}
			if d1 <= 1 {
				return
			}
			n = d1
		}
	}
}

// clearNoChange drops the substitutes' marks below q (nil: none).
func (q *qtNode) clearNoChange() {
	if q == nil {
		return
	}
	q.noChange = false
	for _, c := range q.child {
		c.clearNoChange()
	}
}
