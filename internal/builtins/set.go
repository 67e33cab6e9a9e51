package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Set-returning functions (generate_series, unnest, jsonb_each ...) are
// overloads with Set filled in, registered like any other function, so they
// resolve by the same rules (42883 for no match, 42725 for an ambiguous
// one). Registering one is a single call from an init function:
//
//	Register("jsonb_array_elements", Overload{
//		Params: []Param{T(sqltypes.TypeJSONB)},
//		Result: Returns(sqltypes.TypeJSONB),
//		Set:    &SetFunc{Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
//			return Column(elementsOf(a[0])), nil
//		}},
//	})
//
// Nothing else changes: the planner types the call (Result, or Columns)
// and places it (in FROM a TableFunc, in a select list a ProjectSet, with
// PostgreSQL's placement errors elsewhere); the executor calls Rows once per
// call, with the arguments cast to the overload's parameter types, and
// reads the rows it returns. A strict function (CalledOnNull false) yields
// no rows when an argument is NULL, without Rows being called.

// SetFunc makes an overload set-returning.
type SetFunc struct {
	// Columns names and types the columns of a function returning several
	// (jsonb_each: key text, value jsonb). Nil for a function returning one
	// column, of the overload's Result type, named after the function (in
	// FROM, after its alias).
	Columns []SetColumn
	// Rows starts the set of one call.
	Rows func(ctx *Context, args []sqltypes.Value) (SetRows, error)
}

// SetColumn is one result column of a set-returning function.
type SetColumn struct {
	Name string
	Type sqltypes.Type
}

// SetRows yields the rows of one call of a set-returning function. Next
// returns ok false at the end; a returned row is only read until the next
// call. The executor looks at the statement's context between rows, so an
// endless set (generate_series to infinity) stops when a LIMIT is met or
// the statement is canceled.
type SetRows interface {
	Next() (row []sqltypes.Value, ok bool, err error)
}

// RowsFunc adapts a function to SetRows.
type RowsFunc func() ([]sqltypes.Value, bool, error)

// Next implements SetRows.
func (f RowsFunc) Next() ([]sqltypes.Value, bool, error) { return f() }

// Column returns the rows of a one-column set computed ahead of time.
func Column(values []sqltypes.Value) SetRows {
	i := 0
	row := make([]sqltypes.Value, 1)
	return RowsFunc(func() ([]sqltypes.Value, bool, error) {
		if i >= len(values) {
			return nil, false, nil
		}
		row[0] = values[i]
		i++
		return row, true, nil
	})
}

// Table returns rows computed ahead of time.
func Table(rows [][]sqltypes.Value) SetRows {
	i := 0
	return RowsFunc(func() ([]sqltypes.Value, bool, error) {
		if i >= len(rows) {
			return nil, false, nil
		}
		i++
		return rows[i-1], true, nil
	})
}

// ResultColumns is the layout of a set-returning overload's rows for the
// resolved argument types: its Columns, or one column named name.
func (r Resolved) ResultColumns(name string) []SetColumn {
	if r.Set != nil && r.Set.Columns != nil {
		return r.Set.Columns
	}
	return []SetColumn{{Name: name, Type: r.Result}}
}

// ReturnsSet reports whether name has set-returning overloads.
func ReturnsSet(name string) bool {
	for _, o := range registry[name] {
		if o.Set != nil {
			return true
		}
	}
	return false
}
