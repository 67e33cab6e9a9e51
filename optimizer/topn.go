package optimizer

import (
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TopNQuery is an ORDER BY col [DESC] LIMIT k above a Z-order scan whose
// index has col among its attributes. Reading the whole box and sorting it
// reads every row the box holds for k of them; the executor instead reads
// the index's Z-cells best first along col, from the end the ORDER BY
// starts at (executor/topn.go, zorder.TopNCells): the first batch reaches
// as far along col as the statistics' rows in the box say k rows lie, and
// the reads stop once the k-th row found is strictly further along than
// any unread cell can hold, since no unread row of the box can come before
// it or tie it. The Sort and Limit above still order the rows it returns
// by every ORDER BY key.
type TopNQuery struct {
	K int
	// Dim is col's Z attribute, Column its table column.
	Dim, Column int
	Desc        bool
	// Rows is the statistics' estimate of the rows in the box (0:
	// unknown), which sizes the first batch and the cells.
	Rows float64
	// Budget bounds the cells of a batch split finer than whole where
	// every range is a request.
	Budget int
	name   string
}

// topNMinRows: a box the statistics say holds fewer rows than this many
// times K is read whole; a search would save little and cost seeks.
const topNMinRows = 1

// Describe is EXPLAIN's account of the search.
func (q *TopNQuery) Describe() string {
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	return fmt.Sprintf("ORDER BY %s %s LIMIT %d reads the box's Z-cells best first along %s", q.name, dir, q.K, q.name)
}

// topNQuery returns the slab search for a Z-order candidate under an
// ORDER BY ... LIMIT, or nil when the path cannot serve one: the first
// ORDER BY key must be an index attribute that is never NULL (NULLs sort
// apart from the codes) of a type whose Z-codes keep its order.
func topNQuery(s *scanSpec, best *candidate, opts Options) *TopNQuery {
	if s.Limit <= 0 || len(s.Order) == 0 || best.index == nil || best.zschema == nil {
		return nil
	}
	col := s.Order[0].Col
	t := s.Table
	if col < 0 || col >= len(t.Columns) {
		return nil
	}
	c := t.Columns[col]
	if !c.NotNull && !inPrimaryKey(t, col) {
		return nil
	}
	switch c.Type.Kind() {
	case sqltypes.KindInt, sqltypes.KindFloat, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
	default:
		return nil
	}
	dim := -1
	for i, k := range best.index.Columns {
		if k.Column == col {
			dim = i
		}
	}
	if dim < 0 || best.zbox[dim].Empty() {
		return nil
	}
	if best.rows > 0 && best.rows < topNMinRows*float64(s.Limit) {
		return nil
	}
	return &TopNQuery{K: s.Limit, Dim: dim, Column: col, Desc: s.Order[0].Desc, Rows: best.rows, Budget: zBudget(opts), name: c.Name}
}

// inPrimaryKey reports whether column col is in t's primary key (and so
// never NULL).
func inPrimaryKey(t *catalog.Table, col int) bool {
	for _, k := range t.PrimaryKey {
		if k.Column == col {
			return true
		}
	}
	return false
}
