package ir

import (
	"github.com/zproxy/zproxy/catalog/pgcatalog"
)

// Extension is CREATE or DROP EXTENSION, checked against zproxy's built-in
// extensions: Present are the named extensions zproxy has, Missing the
// others (only with IF [NOT] EXISTS; otherwise binding fails).
type Extension struct {
	Drop      bool
	MissingOK bool
	Present   []pgcatalog.Extension
	Missing   []string
	// Schema and Version are CREATE's SCHEMA and VERSION ("" when not
	// given); Cascade is CASCADE.
	Schema, Version string
	Cascade         bool
}

// Kind implements Statement.
func (*Extension) Kind() string { return "extension" }

// Describe implements Statement: CREATE and DROP EXTENSION change the
// database's record of its extensions (catalog.Extension).
func (x *Extension) Describe() Description {
	tag := "CREATE EXTENSION"
	if x.Drop {
		tag = "DROP EXTENSION"
	}
	return Description{Class: ClassDDL, Tag: tag, Writes: true}
}
