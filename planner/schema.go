package planner

import (
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindSchema binds CREATE, ALTER and DROP SCHEMA; the session checks the
// names against the catalog when it applies the change.
func bindSchema(st *parser.SchemaStatement) (*ir.SchemaChange, error) {
	x := &ir.SchemaChange{Action: st.Action, Names: st.Names, MissingOK: st.MissingOK, NewName: st.NewName, Cascade: st.Cascade, Elements: st.Elements}
	if st.Role != nil {
		x.Role, x.Current = st.Role.Name, st.Role.Current
	}
	return x, nil
}
