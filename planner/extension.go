package planner

import (
	"strings"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindExtension resolves the extensions an EXTENSION statement names.
// CREATE of one zproxy lacks cannot succeed even with IF NOT EXISTS:
// there is nothing to install.
func bindExtension(es *parser.ExtensionStatement) (*ir.Extension, error) {
	x := &ir.Extension{Drop: es.Drop, MissingOK: es.MissingOK, Schema: es.Schema, Version: es.Version, Cascade: es.Cascade}
	for _, name := range es.Names {
		if ext, ok := pgcatalog.FindExtension(name); ok {
			x.Present = append(x.Present, ext)
			continue
		}
		switch {
		case !es.Drop:
			var builtIn []string
			for _, x := range pgcatalog.Extensions {
				builtIn = append(builtIn, x.Name)
			}
			return nil, pgerr.New(pgerr.FeatureNotSupported, "extension %q is not available", name).
				WithDetail("zproxy has no extensions but its built-in %s.", strings.Join(builtIn, ", "))
		case !es.MissingOK:
			return nil, pgerr.New(pgerr.UndefinedObject, "extension %q does not exist", name)
		}
		x.Missing = append(x.Missing, name)
	}
	return x, nil
}
