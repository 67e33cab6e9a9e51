package planner

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindAlterView binds the ALTER VIEW (or ALTER TABLE naming a view) forms
// PostgreSQL has for views: RENAME [COLUMN], SET SCHEMA, ALTER COLUMN c
// SET DEFAULT / DROP DEFAULT, SET (options) and RESET (options).
func bindAlterView(snap *catalog.Snapshot, stmt *parser.Statement, at *ir.AlterTable, v *catalog.View) (ir.Statement, error) {
	at.View = true
	b := &Binder{snap: snap, stmt: stmt}
	for _, a := range stmt.Alter.Actions {
		switch a.Kind {
		case parser.AlterRenameTable, parser.AlterRenameColumn, parser.AlterDropDefault, parser.AlterResetOptions:
		case parser.AlterSetDefault:
			i := viewColumn(v, a.Column)
			if i < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column, v.Name)
			}
			if _, err := b.bindDefault(catalog.Column{Name: a.Column, Type: v.Types[i]}, a.Default); err != nil {
				return nil, err
			}
		case parser.AlterSetOptions:
			for _, k := range a.OptionOrder {
				if err := checkViewOption(k, a.Options[k]); err != nil {
					return nil, err
				}
			}
		default:
			if stmt.AlterView {
				return nil, pgerr.New(pgerr.SyntaxError, "syntax error: ALTER VIEW does not take this action").WithPosition(a.Pos)
			}
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a table", stmt.Alter.Table).WithHint("Use ALTER VIEW to change a view.")
		}
		if a.Kind == parser.AlterDropDefault && viewColumn(v, a.Column) < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", a.Column, v.Name)
		}
		at.Actions = append(at.Actions, ir.AlterAction{AlterAction: a})
	}
	return at, nil
}

// viewColumn is the index of view v's column name, or -1.
func viewColumn(v *catalog.View, name string) int {
	for i, c := range v.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// checkViewOption checks a view reloption as PostgreSQL's
// view_reloptions does, and refuses what zproxy cannot honour: a CHECK
// OPTION (writes through a view are not checked against its WHERE) and
// security_barrier (the optimizer may evaluate a query's conditions
// before the view's own).
func checkViewOption(key, val string) error {
	switch key {
	case "check_option":
		if v := strings.ToLower(val); v != "local" && v != "cascaded" {
			return pgerr.New(pgerr.InvalidParameterValue, "invalid value for enum option \"check_option\": %s", val).
				WithDetail("Valid values are \"local\" and \"cascaded\".")
		}
		return unsupported("WITH CHECK OPTION is not supported")
	case "security_barrier", "security_invoker":
		on, ok := guc.ParseBool(val)
		if !ok {
			return pgerr.New(pgerr.InvalidParameterValue, "invalid value for boolean option \"%s\": %s", key, val)
		}
		if on && key == "security_barrier" {
			return pgerr.New(pgerr.FeatureNotSupported, "security_barrier views are not supported").
				WithHint("zproxy may evaluate a query's conditions before the view's own; use security_barrier = false.")
		}
		return nil
	}
	return pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter \"%s\"", key)
}
