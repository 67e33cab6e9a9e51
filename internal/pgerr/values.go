package pgerr

// A DETAIL that shows a row's values ("Failing row contains (...)", "Key
// (k)=(1) already exists.") may show only what the client's role may read,
// as PostgreSQL's ExecBuildSlotValueDescription and
// BuildIndexValueDescription decide. The executor that raises such an
// error does not know the role; it attaches a renderer, and the session,
// which knows the statement's privileges, renders the detail again through
// RenderValues before the error leaves it, in the session's output
// settings (DateStyle ...), which the executor does not know either.

// Visibility is what a role may see of one column in an error's detail.
type Visibility uint8

// Visibilities, weakest first.
const (
	// Hidden: neither readable nor written by the statement.
	Hidden Visibility = iota
	// Written: not readable, but a value the statement itself supplied
	// (an inserted or updated column): shown in a failing row, not in a
	// key.
	Written
	// Readable: the role may SELECT the column.
	Readable
)

// ColumnVisibility says what may be shown of column col of the table with
// object ID table; nil shows everything.
type ColumnVisibility func(table uint64, col int) Visibility

// WithValues sets e's DETAIL to render(nil, nil), the full text in
// PostgreSQL's default output, and keeps render so that RenderValues can
// render it for a role and a session. render returns "" when nothing may
// be shown (the DETAIL is then left out). Its second argument is the
// session's output settings, a sqltypes.Style that this leaf package
// passes through without naming it (nil: the defaults).
func (e *Error) WithValues(render func(vis ColumnVisibility, style any) string) *Error {
	e.values = render
	e.Detail = render(nil, nil)
	return e
}

// RenderValues renders the DETAIL of err, if it shows row values, with
// only what vis allows (nil: everything) and the values printed in style
// (see WithValues).
func RenderValues(err error, vis ColumnVisibility, style any) {
	if e := As(err); e != nil && e.values != nil {
		e.Detail = e.values(vis, style)
	}
}
