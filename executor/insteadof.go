package executor

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// Writes to a view with INSTEAD OF triggers (planner/insteadof.go): the
// target is the view's stand-in (catalog.Table.InsteadOf), and each row
// the statement would write runs the view's INSTEAD OF triggers instead,
// as PostgreSQL's ExecIR*Triggers do: a trigger returning NULL leaves the
// row uncounted; INSERT's and UPDATE's RETURNING read the row the
// triggers returned, DELETE's the view's row. The view's statement
// triggers fire before and after.

// insteadInsert runs INSERT on a view through its INSTEAD OF triggers.
func (ec *execCtx) insteadInsert(ctx context.Context, n *optimizer.Insert) (WriteResult, error) {
	t := n.Table
	if err := ec.fireStatement(t, "INSERT", "BEFORE"); err != nil {
		return WriteResult{}, err
	}
	src, err := ec.sourceRows(ctx, n.Source)
	if err != nil {
		return WriteResult{}, err
	}
	var res WriteResult
	for _, row := range src {
		if err := ec.castRow(t, row); err != nil {
			return WriteResult{}, err
		}
		out, err := ec.fireRow(t, "INSTEAD OF", "INSERT", nil, nil, row[:len(t.Columns):len(t.Columns)])
		if err != nil {
			return WriteResult{}, err
		}
		if err := ec.insteadDone(&res, n.Returning, out, nil); err != nil {
			return WriteResult{}, err
		}
	}
	return res, ec.fireStatement(t, "INSERT", "AFTER")
}

// insteadRows runs a view's INSTEAD OF INSERT triggers on rows (COPY's),
// returning those they returned a row for (the rows COPY counts).
func (ec *execCtx) insteadRows(t *catalog.Table, rows [][]sqltypes.Value) ([][]sqltypes.Value, error) {
	kept := rows[:0]
	for _, row := range rows {
		out, err := ec.fireRow(t, "INSTEAD OF", "INSERT", nil, nil, row)
		if err != nil {
			return nil, err
		}
		if out != nil {
			kept = append(kept, row)
		}
	}
	return kept, nil
}

// insteadModify runs UPDATE (event UPDATE, with set) or DELETE on a view
// through its INSTEAD OF triggers: the source yields the view's rows
// (then the columns of FROM or USING items).
func (ec *execCtx) insteadModify(ctx context.Context, t *catalog.Table, event string, src optimizer.Node, set map[int]ir.Expr, ret *ir.Returning) (WriteResult, error) {
	if err := ec.fireStatement(t, event, "BEFORE"); err != nil {
		return WriteResult{}, err
	}
	rows, err := ec.sourceRows(ctx, src)
	if err != nil {
		return WriteResult{}, err
	}
	w := len(t.Columns)
	var res WriteResult
	for _, in := range rows {
		old := in[:w:w]
		var out []sqltypes.Value
		if event == "UPDATE" {
			row := copyRow(old)
			for col, x := range set {
				v, err := x.Eval(ec.eval, in)
				if err != nil {
					return WriteResult{}, err
				}
				if row[col], err = sqltypes.Cast(v, t.Columns[col].Type); err != nil {
					return WriteResult{}, err
				}
			}
			out, err = ec.fireRow(t, "INSTEAD OF", event, set, old, row)
		} else if out, err = ec.fireRow(t, "INSTEAD OF", event, nil, old, nil); out != nil {
			out = old // DELETE's RETURNING reads the view's row
		}
		if err != nil {
			return WriteResult{}, err
		}
		if err := ec.insteadDone(&res, ret, out, in[w:]); err != nil {
			return WriteResult{}, err
		}
	}
	return res, ec.fireStatement(t, event, "AFTER")
}

// insteadDone counts a row the INSTEAD OF triggers returned (nil: none)
// and adds its RETURNING row (extra: the FROM items' columns).
func (ec *execCtx) insteadDone(res *WriteResult, ret *ir.Returning, row, extra []sqltypes.Value) error {
	if row == nil {
		return nil
	}
	res.Count++
	if ret == nil {
		return nil
	}
	r, err := ec.returningRow(ret, append(copyRow(row), extra...))
	if err == nil {
		res.Returning = append(res.Returning, r)
	}
	return err
}
