package ir

import (
	"github.com/zproxy/zproxy/catalog"
)

// Comment is COMMENT ON TABLE | VIEW | INDEX | COLUMN | SCHEMA | SEQUENCE |
// TRIGGER | DATABASE | ROLE: the object it names, resolved, and the new
// comment ("" removes it).
type Comment struct {
	Table  *catalog.Table // TABLE, COLUMN, and the table of an INDEX
	Column int            // COLUMN: its ordinal in Table.Columns; else -1
	Index  string         // INDEX
	View   *catalog.View  // VIEW
	// Schema is SCHEMA's schema (a user schema's name).
	Schema string
	// Sequence is SEQUENCE's sequence.
	Sequence *catalog.Sequence
	// Trigger is TRIGGER's trigger, of Table or View.
	Trigger string
	// Constraint is CONSTRAINT's constraint, of Table.
	Constraint string
	// LargeObject is LARGE OBJECT's OID: data, not the catalog, so the
	// session checks the object and its owner as it writes the comment.
	LargeObject uint32
	// Extension is EXTENSION's built-in extension, whose comment Text
	// already is (the binder refuses another).
	Extension string
	// Database and Role are DATABASE's and ROLE's names, shared objects
	// the session finds and checks as it applies the comment.
	Database, Role string
	Text           string
}

// Kind implements Statement.
func (*Comment) Kind() string { return "comment" }

// Describe implements Statement: COMMENT changes the catalog but no plan,
// and needs the ownership of what it comments on.
func (x *Comment) Describe() Description {
	d := Description{Class: ClassDDL, Writes: true}
	switch {
	case x.Sequence != nil:
		d.Owns = []ObjectRef{{Kind: ObjectSequence, Name: x.Sequence.Name, Owner: x.Sequence.Owner}}
	case x.View != nil:
		d.Owns = []ObjectRef{{Kind: ObjectView, Name: x.View.Name, Owner: x.View.Owner}}
	case x.Table != nil && x.Index != "":
		d.Owns = []ObjectRef{{Kind: ObjectIndex, Name: x.Index, Owner: x.Table.Owner}}
	case x.Table != nil:
		d.Owns = []ObjectRef{{Kind: ObjectTable, Name: x.Table.Name, Owner: x.Table.Owner}}
	}
	if x.Schema != "" || x.Database != "" || x.Role != "" {
		// The session checks the schema's ownership as it applies it.
		d.ChangesSchema = true
	}
	return d
}
