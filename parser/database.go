package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// DatabaseStatement is CREATE, DROP or ALTER DATABASE, parsed by the front
// end (Statement.AST is nil for it); the session checks the options'
// values and runs it.
type DatabaseStatement struct {
	// Action is "create", "drop", "rename", "owner", "set", "reset" or
	// "options" (ALTER DATABASE name [WITH] option ...).
	Action string
	// Name is the database named; Pos the 1-based position of its name.
	Name string
	Pos  int
	// MissingOK is DROP's IF EXISTS; Force its WITH (FORCE).
	MissingOK bool
	Force     bool
	// NewName is RENAME TO's name; Owner OWNER TO's role.
	NewName string
	Owner   *RoleName
	// Options are CREATE's and ALTER's options, in order.
	Options []DatabaseOption
	// Param is SET's and RESET's parameter (lower case; "all" for RESET
	// ALL); Value SET's value, as SET would take it, empty for TO DEFAULT.
	Param string
	Value string
}

// DatabaseOption is one option of CREATE or ALTER DATABASE: its name in
// lower case ("connection limit" for CONNECTION LIMIT), its value as
// written (an identifier folded to lower case, a string's contents, a
// number), whether it was DEFAULT, and its position.
type DatabaseOption struct {
	Name    string
	Value   string
	Default bool
	Pos     int
}

// databaseStmt parses
//
//	CREATE DATABASE name [[WITH] option [=] value ...]
//	DROP DATABASE [IF EXISTS] name [[WITH] (FORCE [, ...])]
//	ALTER DATABASE name RENAME TO new | OWNER TO role
//	ALTER DATABASE name [WITH] option [=] value ...
//	ALTER DATABASE name SET param {TO | =} {value | DEFAULT}
//	ALTER DATABASE name RESET {param | ALL}
//
// or returns nil for another statement.
func (r *rewriter) databaseStmt() (*DatabaseStatement, error) {
	if !r.peek(1, "database") || !r.peek(0, "create") && !r.peek(0, "drop") && !r.peek(0, "alter") {
		return nil, nil
	}
	st := &DatabaseStatement{Action: r.toks[0].val}
	k := 2
	if st.Action == "drop" && r.peek(k, "if") && r.peek(k+1, "exists") {
		st.MissingOK, k = true, k+2
	}
	name, err := r.name(k)
	if err != nil {
		return nil, err
	}
	st.Name, st.Pos, k = name, r.pos(k), k+1
	switch st.Action {
	case "create":
		if k, err = r.databaseOptions(st, k); err != nil {
			return nil, err
		}
	case "drop":
		if r.peek(k, "with") {
			k++
		}
		if r.peek(k, "(") {
			for k++; ; k++ {
				if !r.peek(k, "force") {
					if k < len(r.toks) && r.toks[k].kind == tkIdent {
						return nil, pgerr.New(pgerr.SyntaxError, "unrecognized DROP DATABASE option %q", r.toks[k].val).WithPosition(r.pos(k))
					}
					return nil, r.syntaxErrorAt(k)
				}
				st.Force, k = true, k+1
				if !r.peek(k, ",") {
					break
				}
			}
			if !r.peek(k, ")") {
				return nil, r.syntaxErrorAt(k)
			}
			k++
		}
	case "alter":
		switch {
		case r.peek(k, "rename") && r.peek(k+1, "to"):
			if st.NewName, err = r.name(k + 2); err != nil {
				return nil, err
			}
			st.Action, k = "rename", k+3
		case r.peek(k, "owner") && r.peek(k+1, "to"):
			rn, err := r.roleName(k+2, true, false)
			if err != nil {
				return nil, err
			}
			st.Action, st.Owner, k = "owner", &rn, k+3
		case r.peek(k, "set") && r.peek(k+1, "tablespace"):
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER DATABASE ... SET TABLESPACE is not supported").WithPosition(r.pos(k))
		case r.peek(k, "set") || r.peek(k, "reset"):
			if st.Action, st.Param, st.Value, k, err = r.settingClause(k, "ALTER DATABASE"); err != nil {
				return nil, err
			}
		default:
			st.Action = "options"
			if k, err = r.databaseOptions(st, k); err != nil {
				return nil, err
			}
			if len(st.Options) == 0 {
				return nil, r.syntaxErrorAt(k)
			}
		}
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return st, nil
}

// databaseOptions reads CREATE or ALTER DATABASE's options from k to the
// end of the statement: [WITH] {name [=] {value | DEFAULT}} ..., where
// CONNECTION LIMIT is one name.
func (r *rewriter) databaseOptions(st *DatabaseStatement, k int) (int, error) {
	if r.peek(k, "with") {
		k++
	}
	for k < len(r.toks) {
		t := r.toks[k]
		if t.kind != tkIdent {
			return k, r.syntaxErrorAt(k)
		}
		o := DatabaseOption{Name: t.val, Pos: r.pos(k)}
		k++
		if o.Name == "connection" {
			if !r.peek(k, "limit") {
				return k, r.syntaxErrorAt(k)
			}
			o.Name, k = "connection limit", k+1
		}
		if r.peek(k, "=") {
			k++
		}
		if k >= len(r.toks) {
			return k, r.syntaxErrorAt(k)
		}
		v := r.toks[k]
		switch {
		case v.kind == tkIdent && v.val == "default":
			o.Default = true
		case v.kind == tkIdent || v.kind == tkQIdent || v.kind == tkString || v.kind == tkNumber:
			o.Value = v.val
		case v.is("-") && k+1 < len(r.toks) && r.toks[k+1].kind == tkNumber:
			o.Value, k = "-"+r.toks[k+1].val, k+1
		default:
			return k, r.syntaxErrorAt(k)
		}
		st.Options = append(st.Options, o)
		k++
	}
	return k, nil
}

// settingClause parses the SET or RESET clause at k of ALTER DATABASE
// and ALTER ROLE (what names the statement, for errors) to the end of
// the statement:
//
//	SET param {TO | =} {value [, ...] | DEFAULT}
//	SET param FROM CURRENT
//	RESET {param | ALL}
//
// It returns "set" or "reset" (SET ... TO DEFAULT is a reset), the
// parameter (lower case; "all" for RESET ALL) and SET's value as SET would
// take it ("" with current for FROM CURRENT).
func (r *rewriter) settingClause(k int, what string) (action, param, value string, next int, err error) {
	if r.peek(k, "reset") {
		param, k, err = r.settingName(k + 1)
		return "reset", param, "", k, err
	}
	if param, k, err = r.settingName(k + 1); err != nil {
		return "", "", "", k, err
	}
	if r.peek(k, "from") && r.peek(k+1, "current") {
		if what != "ALTER ROLE" {
			return "", "", "", k, pgerr.New(pgerr.FeatureNotSupported, "%s ... SET ... FROM CURRENT is not supported", what).WithPosition(r.pos(k))
		}
		return "set_current", param, "", k + 2, nil
	}
	if !r.peek(k, "to") && !r.peek(k, "=") {
		return "", "", "", k, r.syntaxErrorAt(k)
	}
	k++
	if r.peek(k, "default") && k+1 == len(r.toks) {
		return "reset", param, "", k + 1, nil
	}
	var vals []string
	for ; k < len(r.toks); k++ {
		t := r.toks[k]
		if len(vals) > 0 {
			// Values are a comma-separated list.
			if !t.is(",") {
				return "", "", "", k, r.syntaxErrorAt(k)
			}
			if k+1 == len(r.toks) {
				return "", "", "", k, r.syntaxErrorAt(k + 1)
			}
			k++
			t = r.toks[k]
		}
		switch {
		case t.kind == tkString || t.kind == tkIdent || t.kind == tkQIdent || t.kind == tkNumber:
			vals = append(vals, listQuoted(param, t, t.val))
		case (t.is("-") || t.is("+")) && k+1 < len(r.toks) && r.toks[k+1].kind == tkNumber:
			vals, k = append(vals, t.val+r.toks[k+1].val), k+1
		default:
			return "", "", "", k, r.syntaxErrorAt(k)
		}
	}
	if len(vals) == 0 {
		return "", "", "", k, r.syntaxErrorAt(k)
	}
	if err := checkValueCount(param, vals); err != nil {
		return "", "", "", k, err
	}
	return "set", param, strings.Join(vals, ", "), k, nil
}
