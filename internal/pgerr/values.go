package pgerr

// A DETAIL that shows a row's values ("Failing row contains (...)", "Key
// (k)=(1) already exists.") may show only what the client's role may read,
// as PostgreSQL's ExecBuildSlotValueDescription and
// BuildIndexValueDescription decide. The executor that raises such an
// error does not know the role; it attaches a renderer, and the session,
// which knows the statement's privileges, renders the detail again through
// RedactValues before the error leaves it.

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

// WithValues sets e's DETAIL to render(nil), the full text, and keeps
// render so that RedactValues can render it for a role. render returns ""
// when nothing may be shown (the DETAIL is then left out).
func (e *Error) WithValues(render func(ColumnVisibility) string) *Error {
	e.values = render
	e.Detail = render(nil)
	return e
}

// RedactValues renders the DETAIL of err, if it shows row values, with
// only what vis allows.
func RedactValues(err error, vis ColumnVisibility) {
	if e := As(err); e != nil && e.values != nil && vis != nil {
		e.Detail = e.values(vis)
	}
}
