package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
)

// A view's stars. PostgreSQL stores a view's query with each * (and t.*)
// expanded to the columns it named at CREATE VIEW, so a column added to a
// table afterwards is not one of the view's, and SELECT * FROM v goes on
// returning the view's columns. zproxy keeps the view's text: CREATE VIEW
// records what each star named (catalog.View.Stars), and binding the
// stored view expands each star to as many columns of each FROM item as
// it named then.

// starLog is the stars of one view's query: recorded as CREATE VIEW binds
// it, or replayed as the stored view binds.
type starLog struct {
	record bool
	stars  []catalog.ViewStar
	next   int // the star the binder expands next, in binding order
}

// expandStar is sc.star(qual) for a select list's star, recorded or
// replayed when the query is a view's.
func (b *Binder) expandStar(sc *scope, qual string) ([]ir.Expr, []ir.Column, error) {
	exprs, cols, items, err := sc.starItems(qual)
	if err != nil || b.stars == nil {
		return exprs, cols, err
	}
	k := b.stars.next
	b.stars.next++
	if b.stars.record {
		st := catalog.ViewStar{Items: items, Names: make([]string, len(cols))}
		for i, c := range cols {
			st.Names[i] = c.Name
		}
		b.stars.stars = append(b.stars.stars, st)
		return exprs, cols, nil
	}
	if k >= len(b.stars.stars) {
		return exprs, cols, nil // a view stored before stars were recorded
	}
	want := b.stars.stars[k]
	if len(cols) == len(want.Names) {
		return exprs, cols, nil // nothing was added
	}
	// Each FROM item keeps the columns it gave the star then: its first
	// ones, since a table's new columns come after its old ones
	// (PostgreSQL's view refers to columns by number).
	quota := map[string]int{}
	for _, item := range want.Items {
		quota[item]++
	}
	var outExprs []ir.Expr
	var outCols []ir.Column
	for j := range cols {
		if quota[items[j]] > 0 {
			quota[items[j]]--
			outExprs, outCols = append(outExprs, exprs[j]), append(outCols, cols[j])
		}
	}
	for i, c := range outCols {
		if i >= len(want.Names) || c.Name != want.Names[i] {
			// Not the columns recorded (renaming a column a view reads is
			// refused, so names do not change): expand afresh, and the
			// view's column count decides (bindView's 42P17).
			return exprs, cols, nil
		}
	}
	if len(outCols) != len(want.Names) {
		return nil, nil, pgerr.New(pgerr.InvalidObjectDefinition, "a column the view's * named no longer exists")
	}
	return outExprs, outCols, nil
}

// replayStars makes the stars of view v's query, bound until the returned
// function runs, expand as they did when v was created.
func (b *Binder) replayStars(stars []catalog.ViewStar) func() {
	saved := b.stars
	b.stars = &starLog{stars: stars}
	return func() { b.stars = saved }
}
