package pgcatalog

import (
	"strconv"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The input and output of regoper and regoperator, as PostgreSQL's
// regoperin, regoperout, regoperatorin and regoperatorout read and
// print them, over pg_operator's rows: the built-in operators of
// pgOperatorTable and the user-defined ones.

// regOperator is one pg_operator row as the reg* types see it.
type regOperator struct {
	oid         uint32
	name        string // oprname
	schema      string // its namespace's name
	left, right uint32 // 0 for a prefix operator's missing left operand
	visible     bool   // found by its unqualified name and operands (OperatorIsVisible)
}

var (
	builtinOperatorsOnce sync.Once
	builtinOperators     []regOperator
)

// builtinRegOperators are pgOperatorTable's rows, read once.
func builtinRegOperators() []regOperator {
	builtinOperatorsOnce.Do(func() {
		num := func(s string) uint32 { n, _ := strconv.ParseUint(s, 10, 32); return uint32(n) }
		for _, line := range strings.Split(strings.TrimSpace(pgOperatorTable), "\n") {
			f := operatorFields(line)
			if f == nil {
				continue
			}
			builtinOperators = append(builtinOperators, regOperator{oid: num(f[0]), name: f[1], schema: "pg_catalog",
				left: num(f[5]), right: num(f[6]), visible: true})
		}
	})
	return builtinOperators
}

// regOperators are the operators a name finds: an unqualified name the
// built-in ones and the user-defined ones the search path finds, a
// qualified one its schema's.
func (e *Env) regOperators(schema, name string) ([]regOperator, error) {
	var out []regOperator
	if schema == "" || schema == "pg_catalog" {
		for _, o := range builtinRegOperators() {
			if o.name == name {
				out = append(out, o)
			}
		}
	}
	if e == nil || e.Snap == nil {
		if schema != "" && schema != "pg_catalog" {
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
		}
		return out, nil
	}
	if schema != "" && schema != "pg_catalog" && !e.Snap.HasSchema(schema) {
		if _, err := namespaceOID(sqltypes.QuoteIdent(schema)); err != nil {
			return nil, err
		}
	}
	for _, o := range e.Snap.AllOperators() {
		if o.Bare() != name || o.Shell() {
			continue
		}
		visible := e.Snap.OperatorVisible(o)
		if schema == "" && !visible || schema != "" && o.Schema() != schema {
			continue
		}
		left := o.Left.OID()
		if o.Kind == 'l' {
			left = 0
		}
		out = append(out, regOperator{oid: o.OID, name: o.Bare(), schema: o.Schema(), left: left, right: o.Right.OID(), visible: visible})
	}
	return out, nil
}

// regOperatorByOID finds the operator of oid.
func (e *Env) regOperatorByOID(oid uint32) (regOperator, bool) {
	for _, o := range builtinRegOperators() {
		if o.oid == oid {
			return o, true
		}
	}
	if e == nil || e.Snap == nil {
		return regOperator{}, false
	}
	for _, o := range e.Snap.AllOperators() {
		if o.OID == oid {
			left := o.Left.OID()
			if o.Kind == 'l' {
				left = 0
			}
			return regOperator{oid: o.OID, name: o.Bare(), schema: o.Schema(), left: left, right: o.Right.OID(),
				visible: e.Snap.OperatorVisible(o)}, true
		}
	}
	return regOperator{}, false
}

// qualifiedName splits an operator's or a collation's possibly qualified
// name as stringToQualifiedNameList and DeconstructQualifiedName do.
func (e *Env) qualifiedName(s string) (schema, name string, err error) {
	parts, err := sqltypes.SplitQualifiedName(s)
	if err != nil {
		return "", "", err
	}
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	case 3:
		if parts[0] != e.database() {
			return "", "", pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", strings.Join(parts, "."))
		}
		return parts[1], parts[2], nil
	}
	return "", "", pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
}

// regoperOID is regoperin: the one operator of the name, whatever its
// operands (42883 when none, 42725 when several).
func (e *Env) regoperOID(s string) (uint32, error) {
	oid, _, err := e.lookupRegoper(s, false)
	return oid, err
}

// lookupRegoper is regoperin, or to_regoper with missingOK: then a name
// that finds no operator, or several, or whose schema does not exist is
// not found (false) rather than an error; a name that does not parse is
// an error either way.
func (e *Env) lookupRegoper(s string, missingOK bool) (uint32, bool, error) {
	schema, name, err := e.qualifiedName(s)
	if err != nil {
		return 0, false, err
	}
	ops, err := e.regOperators(schema, name)
	switch {
	case err != nil && missingOK:
		return 0, false, nil
	case err != nil:
		return 0, false, err
	case len(ops) == 1:
		return ops[0].oid, true, nil
	case missingOK:
		return 0, false, nil
	case len(ops) == 0:
		return 0, false, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", s)
	}
	return 0, false, pgerr.New(pgerr.AmbiguousFunction, "more than one operator named %s", s)
}

// regoperatorOID is regoperatorin: "name(left,right)", NONE for a
// prefix operator's missing left operand, read as parseNameAndArgTypes
// reads it.
func (e *Env) regoperatorOID(s string) (uint32, error) {
	oid, _, err := e.lookupRegoperator(s, false)
	return oid, err
}

// lookupRegoperator is regoperatorin, or to_regoperator with missingOK:
// then an operator that does not exist, or whose schema does not, is
// not found (false); input that does not parse, a type that does not
// exist or a wrong number of operands is an error either way.
func (e *Env) lookupRegoperator(s string, missingOK bool) (uint32, bool, error) {
	oid, err := e.regoperatorIn(s, missingOK)
	return oid, oid != 0, err
}

func (e *Env) regoperatorIn(s string, missingOK bool) (uint32, error) {
	nameText, args, err := nameAndArgs(s)
	if err != nil {
		return 0, err
	}
	schema, name, err := e.qualifiedName(nameText)
	if err != nil {
		return 0, err
	}
	types := make([]uint32, len(args))
	for i, a := range args {
		if strings.EqualFold(a, "none") {
			continue
		}
		if types[i], err = e.typeOID(a); err != nil {
			return 0, err
		}
	}
	switch len(types) {
	case 1:
		return 0, pgerr.New(pgerr.UndefinedParameter, "missing argument").
			WithHint("Use NONE to denote the missing argument of a unary operator.")
	case 2:
	default:
		return 0, pgerr.New(pgerr.TooManyArguments, "too many arguments").
			WithHint("Provide two argument types for operator.")
	}
	ops, err := e.regOperators(schema, name)
	if err != nil {
		if missingOK {
			return 0, nil
		}
		return 0, err
	}
	for _, o := range ops {
		if o.left == types[0] && o.right == types[1] {
			return o.oid, nil
		}
	}
	if missingOK {
		return 0, nil
	}
	return 0, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", s)
}

func init() {
	// to_regoper and to_regoperator: regoper's and regoperator's input
	// with NULL for what finds no operator (or, for to_regoper, several).
	toReg := func(t sqltypes.Type, lookup func(*Env, string, bool) (uint32, bool, error)) builtins.Overload {
		return fn("", []builtins.Param{textP}, t, builtins.Stable, func(ctx *builtins.Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			oid, ok, err := lookup(e, a[0].S, true)
			if err != nil || !ok {
				return sqltypes.Null, err
			}
			return sqltypes.NewReg(oid, e.RegName(t, oid)), nil
		})
	}
	builtins.Register("to_regoper", toReg(sqltypes.TypeRegOper, (*Env).lookupRegoper))
	builtins.Register("to_regoperator", toReg(sqltypes.TypeRegOperator, (*Env).lookupRegoperator))
}

// nameAndArgs is parseNameAndArgTypes's split of "name(type, ...)": the
// name before the first unquoted left parenthesis, and the types
// between it and the closing one, separated by commas outside quotes,
// parentheses and brackets.
func nameAndArgs(s string) (string, []string, error) {
	invalid := func(msg string) (string, []string, error) {
		return "", nil, pgerr.New(pgerr.InvalidTextRepresentation, "%s", msg)
	}
	open, quoted := -1, false
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			quoted = !quoted
		} else if s[i] == '(' && !quoted {
			open = i
			break
		}
	}
	if open < 0 {
		return invalid("expected a left parenthesis")
	}
	name, rest := s[:open], strings.TrimRight(s[open+1:], " \t\n\r\f")
	if !strings.HasSuffix(rest, ")") {
		return invalid("expected a right parenthesis")
	}
	rest = rest[:len(rest)-1]
	var args []string
	comma := false
	for {
		rest = strings.TrimLeft(rest, " \t\n\r\f")
		if rest == "" {
			if comma {
				return invalid("expected a type name")
			}
			return name, args, nil
		}
		quoted, depth, i := false, 0, 0
		for ; i < len(rest); i++ {
			c := rest[i]
			if c == '"' {
				quoted = !quoted
			} else if c == ',' && !quoted && depth == 0 {
				break
			} else if !quoted {
				switch c {
				case '(', '[':
					depth++
				case ')', ']':
					depth--
				}
			}
		}
		if quoted || depth != 0 {
			return invalid("improper type name")
		}
		args = append(args, strings.TrimRight(rest[:i], " \t\n\r\f"))
		comma = i < len(rest)
		if comma {
			i++
		}
		rest = rest[i:]
	}
}

// regoperName is regoperout: the name alone when it finds this operator
// only, else qualified by its schema; an OID no operator has prints as
// its number.
func (e *Env) regoperName(oid uint32) string {
	o, ok := e.regOperatorByOID(oid)
	if !ok {
		return strconv.FormatUint(uint64(oid), 10)
	}
	if ops, err := e.regOperators("", o.name); err == nil && len(ops) == 1 && ops[0].oid == oid {
		return o.name
	}
	return sqltypes.QuoteIdent(o.schema) + "." + o.name
}

// regoperatorName is regoperatorout (format_operator): name(left,right)
// with NONE for a missing operand, the name qualified when the search
// path does not find it.
func (e *Env) regoperatorName(oid uint32) string {
	o, ok := e.regOperatorByOID(oid)
	if !ok {
		return strconv.FormatUint(uint64(oid), 10)
	}
	var b strings.Builder
	if !o.visible {
		b.WriteString(sqltypes.QuoteIdent(o.schema) + ".")
	}
	operand := func(t uint32) string {
		if t == 0 {
			return "NONE"
		}
		return e.formatType(t, -1, false)
	}
	b.WriteString(o.name + "(" + operand(o.left) + "," + operand(o.right) + ")")
	return b.String()
}

// collationOID is regcollationin: the collation of that name for the
// database's encoding (UTF8), in pg_catalog or the schema named.
func (e *Env) collationOID(s string) (uint32, error) {
	schema, name, err := e.qualifiedName(s)
	if err != nil {
		return 0, err
	}
	if schema == "" || schema == "pg_catalog" {
		for _, c := range sqltypes.Collations {
			if c.Name == name {
				return c.OID, nil
			}
		}
	} else if _, err := e.RegOID(sqltypes.TypeRegNamespace, sqltypes.QuoteIdent(schema)); err != nil {
		return 0, err // 3F000 for a schema that does not exist
	}
	if schema != "" {
		name = schema + "." + name
	}
	return 0, pgerr.New(pgerr.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist", name)
}
