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
}

// Kind implements Statement.
func (*Extension) Kind() string { return "extension" }
