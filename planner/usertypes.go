package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// userType looks up a user-defined type the front end left by name
// (parser.ColumnExtras.TypeName, parser.UserTypeCastOf): "mood" or, with
// array, an array of it.
func userType(snap *catalog.Snapshot, name string, array bool) (sqltypes.Type, error) {
	u, ok := snap.UserType(name)
	if !ok {
		return sqltypes.Type{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	}
	t := u.Type()
	if array {
		t = sqltypes.ArrayOf(t)
	}
	return t, nil
}

// columnTypeName resolves a column definition's user-defined type name.
func columnTypeName(snap *catalog.Snapshot, name string) (sqltypes.Type, error) {
	base, array := strings.CutSuffix(name, "[]")
	return userType(snap, base, array)
}

// castOf recognises a cast (parser.CastOf), resolving a user-defined
// target type in the catalog.
func (b *Binder) castOf(e ast.ExprNode) (operand ast.ExprNode, t sqltypes.Type, ok bool, err error) {
	if operand, t, ok := parser.CastOf(e); ok {
		return operand, t, true, nil
	}
	operand, name, array, ok := parser.UserTypeCastOf(e)
	if !ok {
		return nil, t, false, nil
	}
	t, err = userType(b.snap, name, array)
	return operand, t, true, err
}
