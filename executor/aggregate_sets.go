package executor

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Grouping sets (GROUPING SETS, ROLLUP, CUBE): aggRows hashes every set in
// the same pass over its input; a plain GROUP BY is the one set of all its
// columns. A group's key has NULL in the columns its set does not have.
// Past work_mem each set spills on its own (aggspill.go).

// groupingSets returns the node's grouping sets as GroupBy indexes.
func (a *aggRows) groupingSets() [][]int {
	if a.only != nil {
		return a.only
	}
	if a.node.GroupingSets != nil {
		return a.node.GroupingSets
	}
	all := make([]int, len(a.node.GroupBy))
	for i := range all {
		all[i] = i
	}
	return [][]int{all}
}

// setKey fills key with full's values for the columns of set, NULL for
// the others.
func setKey(key, full []sqltypes.Value, set []int) {
	for i := range key {
		key[i] = sqltypes.Null
	}
	for _, g := range set {
		key[g] = full[g]
	}
}

func (a *aggRows) newGroup(key []sqltypes.Value, set []int) *group {
	g := &group{key: key, aggs: make([]*aggInstance, len(a.node.Aggs))}
	for i := range a.node.Aggs {
		g.aggs[i] = newInstance(&a.node.Aggs[i], a.mem, a.ec.eval)
		if ga, ok := g.aggs[i].acc.(*groupingAgg); ok {
			ga.value = groupingBits(a.node.Aggs[i].Grouping, set)
		}
	}
	return g
}

// groupTable is the groups of one grouping set, by key hash, in the order
// they were first seen.
type groupTable struct {
	byHash map[uint64][]*group
	order  []*group
}

// find returns the group of key, made by create (with a copy of key) when
// it is new.
func (t *groupTable) find(key []sqltypes.Value, create func([]sqltypes.Value) (*group, error)) (*group, error) {
	h := hashRow(key)
	for _, c := range t.byHash[h] {
		if rowsEqual(c.key, key) {
			return c, nil
		}
	}
	g, err := create(copyRow(key))
	if err != nil {
		return nil, err
	}
	if t.byHash == nil {
		t.byHash = map[uint64][]*group{}
	}
	t.byHash[h] = append(t.byHash[h], g)
	t.order = append(t.order, g)
	return g, nil
}

// groupingAgg is grouping(a, b, ...): fixed for a group by its set.
type groupingAgg struct{ value int64 }

func (g *groupingAgg) add([]sqltypes.Value) error      { return nil }
func (g *groupingAgg) result() (sqltypes.Value, error) { return sqltypes.NewInt(g.value), nil }

// groupingBits is grouping()'s value for a row of set: for each argument
// (the last one's bit lowest), 1 when the set does not hold it.
func groupingBits(args []int, set []int) int64 {
	var v int64
	for _, g := range args {
		v <<= 1
		in := false
		for _, s := range set {
			in = in || s == g
		}
		if !in {
			v |= 1
		}
	}
	return v
}
