package ir

import (
	"github.com/zproxy/zproxy/catalog"
)

// Comment is COMMENT ON TABLE | VIEW | INDEX | COLUMN: the object it names,
// resolved, and the new comment ("" removes it).
type Comment struct {
	Table  *catalog.Table // TABLE, COLUMN, and the table of an INDEX
	Column int            // COLUMN: its ordinal in Table.Columns; else -1
	Index  string         // INDEX
	View   *catalog.View  // VIEW
	Text   string
}

// Kind implements Statement.
func (*Comment) Kind() string { return "comment" }
