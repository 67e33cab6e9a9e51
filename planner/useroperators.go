package planner

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// User-defined operators (CREATE OPERATOR) and casts (CREATE CAST) in
// expressions, and the binding of their DDL.
//
// An operator resolves as PostgreSQL's oper() does, approximately: a
// user-defined operator whose operand types are exactly the operands'
// (an untyped operand taking the other's type) wins; otherwise the
// built-in operators are tried, and when none takes the operands, the
// user-defined ones the operands convert to implicitly. The operator
// becomes a call of its function, bound as any call is (a simple SQL
// function inlines, so an index still sees through it).
//
// A cast applies where PostgreSQL's would: CAST and :: always, an AS
// ASSIGNMENT one in assignments, an AS IMPLICIT one wherever a value
// converts implicitly. Overload resolution does not count user-defined
// implicit casts (see README).

// userOperators are the defined (not shell) operators op denotes, prefix
// ones when prefix: through the search path for a bare operator, in its
// schema for a qualified one (OPERATOR(app.===), read as "app.===").
func (b *Binder) userOperators(op string, prefix bool) ([]*catalog.Operator, error) {
	if b == nil || b.snap == nil {
		return nil, nil
	}
	name := op
	if schema, bare, ok := splitOperatorName(op); ok {
		if err := b.checkOperatorSchema(schema); err != nil {
			return nil, err
		}
		name = catalog.QualifiedKey(schema, bare)
	}
	var out []*catalog.Operator
	for _, o := range b.snap.VisibleOperators(name) {
		if !o.Shell() && (o.Kind == 'l') == prefix {
			out = append(out, o)
		}
	}
	return out, nil
}

// hasUserOperators reports whether the bare operator op (a built-in
// one's name) denotes user-defined operators too.
func (b *Binder) hasUserOperators(op string, prefix bool) bool {
	ops, err := b.userOperators(op, prefix)
	return err == nil && len(ops) > 0
}

// extensionOperand reports whether l or r (l nil for a prefix operator)
// is of one of the built-in extensions' types, whose operators live in
// public as CREATE EXTENSION puts them: OPERATOR(public.~~) on citext, as
// pg_dump writes a citext domain's LIKE, is the built-in operator, which
// the caller's builtin binds by its bare name (publicOperator).
func extensionOperand(l, r ir.Expr) bool {
	for _, e := range []ir.Expr{l, r} {
		if e == nil {
			continue
		}
		t := e.Type().StripDomain()
		if t.IsArray() {
			t = t.ElemType()
		}
		if t.ID.IsExtension() {
			return true
		}
	}
	return false
}

// publicOperator is op without a public qualifier (extensionOperand).
func publicOperator(op string) string {
	if schema, bare, ok := splitOperatorName(op); ok && schema == catalog.PublicSchema {
		return bare
	}
	return op
}

// splitOperatorName splits a qualified operator name "schema.op" (an
// operator has no dot); ok is false for a bare one.
func splitOperatorName(op string) (schema, bare string, ok bool) {
	i := strings.LastIndexByte(op, '.')
	if i <= 0 {
		return "", op, false
	}
	return op[:i], op[i+1:], true
}

// checkOperatorSchema is 3F000 for a schema that does not exist and 42501
// for one the user may not use, as PostgreSQL's LookupExplicitNamespace.
func (b *Binder) checkOperatorSchema(schema string) error {
	if !b.snap.HasSchema(schema) {
		return pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
	}
	if b.snap.UsageDenied(schema) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schema)
	}
	return nil
}

// withUserOperators binds l op r (l nil for a prefix operator) through
// the user-defined operators named op, falling back to builtin, the
// built-in operators' binding. A qualified op (a schema's other than
// pg_catalog, whose operators the parser reads bare) names user-defined
// operators alone.
func (b *Binder) withUserOperators(op string, l, r ir.Expr, builtin func() (ir.Expr, error)) (ir.Expr, error) {
	ops, err := b.userOperators(op, l == nil)
	if err != nil {
		return nil, err
	}
	if o := exactOperator(ops, l, r); o != nil {
		return b.bindUserOperator(o, l, r)
	}
	if schema, _, qualified := splitOperatorName(op); qualified && !(schema == catalog.PublicSchema && extensionOperand(l, r)) {
		err = errNoOperator(op, l, r)
	} else {
		var e ir.Expr
		e, err = builtin()
		if err == nil || pgerr.CodeOf(err) != pgerr.UndefinedFunction && pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
			return e, err
		}
		if pgerr.CodeOf(err) == pgerr.FeatureNotSupported && parser.IsUserOperator(op) && !postgresOperatorNames[op] {
			// Neither zproxy nor PostgreSQL has a built-in operator of the
			// name: PostgreSQL's error for an operator that does not exist
			// (one PostgreSQL has and zproxy lacks stays 0A000).
			err = errNoOperator(op, l, r)
		}
	}
	if len(ops) == 0 {
		return nil, err
	}
	var types []sqltypes.Type
	var ovs []builtins.Overload
	for _, o := range ops {
		var params []builtins.Param
		if l != nil {
			params = append(params, builtins.T(o.Left))
		}
		params = append(params, builtins.T(o.Right))
		ovs = append(ovs, builtins.Overload{Params: params, Result: builtins.Returns(o.Result), CalledOnNull: true, Routine: o})
	}
	if l != nil {
		types = append(types, l.Type())
	}
	types = append(types, r.Type())
	// A name no function has: the candidates are the operators alone.
	res, rerr := builtins.ResolveAmong("\x00operator "+op, types, ovs)
	if rerr != nil {
		if pgerr.CodeOf(rerr) == pgerr.AmbiguousFunction {
			return nil, pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: %s", operatorText(op, l, r)).
				WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
		}
		return nil, err
	}
	return b.bindUserOperator(res.Routine.(*catalog.Operator), l, r)
}

// errNoOperator is PostgreSQL's 42883 for an operator no candidate takes.
func errNoOperator(op string, l, r ir.Expr) error {
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", operatorText(op, l, r)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

func operatorText(op string, l, r ir.Expr) string {
	if l == nil {
		return sqltypes.OperatorCallName(op, r.Type())
	}
	return sqltypes.OperatorCallName(op, l.Type(), r.Type())
}

// exactOperator is the operator of ops whose operand types are exactly
// the operands' (an untyped operand taking the other's type), if one.
func exactOperator(ops []*catalog.Operator, l, r ir.Expr) *catalog.Operator {
	rt := r.Type()
	var lt sqltypes.Type
	if l != nil {
		lt = l.Type()
		switch {
		case lt.ID == sqltypes.Unknown && rt.ID != sqltypes.Unknown:
			lt = rt
		case rt.ID == sqltypes.Unknown && lt.ID != sqltypes.Unknown:
			rt = lt
		}
	}
	for _, o := range ops {
		if o.Right.OID() == rt.OID() && (l == nil || o.Left.OID() == lt.OID()) && rt.ID != sqltypes.Unknown {
			return o
		}
	}
	return nil
}

// bindUserOperator binds a use of o over l and r: its function's call
// with the operands converted to o's operand types.
func (b *Binder) bindUserOperator(o *catalog.Operator, l, r ir.Expr) (ir.Expr, error) {
	var args []ir.Expr
	var types []sqltypes.Type
	if l != nil {
		args, types = append(args, l), append(types, o.Left)
	}
	args, types = append(args, r), append(types, o.Right)
	if err := b.coerceArgs(args, types); err != nil {
		return nil, err
	}
	e, _, err := b.bindSupportCall(o.Func, args)
	if f, ok := e.(*ir.Func); ok && err == nil && b.notes != nil {
		// A query bound to be printed (a view's definition) shows the
		// operator, as ruleutils prints PostgreSQL's OpExpr, not the call
		// of its function: (a === b), (!!! a).
		c := *f
		c.Name, c.Infix = ir.UserOperatorName(o.Name), l != nil
		e = &c
	}
	return e, err
}

// userCast applies the user-defined cast from e's type to t when there is
// one the context allows ('e' explicit, 'a' assignment, 'i' implicit); ok
// is false otherwise.
func (b *Binder) userCast(e ir.Expr, t sqltypes.Type, context byte) (ir.Expr, bool, error) {
	if b == nil || b.snap == nil || e.Type().ID == sqltypes.Unknown {
		return nil, false, nil
	}
	c, ok := b.snap.CastBetween(e.Type(), t)
	if !ok {
		return nil, false, nil
	}
	switch {
	case context == 'i' && c.Context != 'i', context == 'a' && c.Context == 'e':
		return nil, false, nil
	}
	switch c.Method {
	case 'i':
		// WITH INOUT: the source's output read by the target's input.
		return &ir.Cast{E: &ir.Cast{E: e, To: sqltypes.TypeText, Explicit: true}, To: t, Explicit: true}, true, nil
	case 'b':
		return &ir.Cast{E: e, To: t, Explicit: true}, true, nil
	}
	args := []ir.Expr{e}
	if len(c.Func.Args) > 1 {
		args = append(args, &ir.Const{V: sqltypes.NewInt(-1), Typ: sqltypes.TypeInt4})
	}
	if len(c.Func.Args) > 2 {
		args = append(args, &ir.Const{V: sqltypes.NewBool(context == 'e'), Typ: sqltypes.TypeBool})
	}
	x, _, err := b.bindSupportCall(c.Func, args)
	if err != nil {
		return nil, true, err
	}
	if x.Type().OID() != t.OID() {
		x = &ir.Cast{E: x, To: t, Explicit: true}
	}
	return x, true, nil
}

// bindOperatorStatement binds CREATE and DROP OPERATOR.
func bindOperatorStatement(snap *catalog.Snapshot, rs *parser.RoutineStatement) (ir.Statement, error) {
	b := &Binder{snap: snap, stmt: &parser.Statement{}}
	spec := rs.Operator
	x := &ir.RoutineChange{RoutineStatement: rs}
	bad := func(format string, args ...any) *pgerr.Error {
		return pgerr.New(pgerr.InvalidFunctionDefinition, format, args...)
	}
	typeOf := func(p parser.RoutineParam) (sqltypes.Type, error) { return paramType(snap, p.Type, p.TypeName) }
	if rs.Action != parser.RoutineCreate {
	sigs:
		for _, sig := range spec.Drop {
			o := catalog.Operator{Name: sig.Name, Kind: 'l'}
			var err error
			if sig.HasLeft {
				o.Kind = 'b'
				o.Left, err = typeOf(sig.Left)
				if skip, ok := missingTypeSkip(rs, sig.Left, err); ok {
					x.Skipped = append(x.Skipped, skip)
					continue sigs
				}
				if err != nil {
					return nil, err
				}
			}
			o.Right, err = typeOf(sig.Right)
			if skip, ok := missingTypeSkip(rs, sig.Right, err); ok {
				x.Skipped = append(x.Skipped, skip)
				continue
			}
			if err != nil {
				return nil, err
			}
			if o.Name, err = operatorKey(snap, sig.Name, false, o.Kind, o.Left, o.Right); err != nil {
				return nil, err
			}
			x.DropOps = append(x.DropOps, o)
		}
		if rs.SetSchema {
			if !snap.HasSchema(rs.NewName) {
				return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", rs.NewName)
			}
			if isTempSchema(rs.NewName) {
				return nil, errTempMove()
			}
		}
		return x, nil
	}
	if !spec.HasRight {
		if spec.Sig.HasLeft {
			return nil, bad("operator right argument type must be specified").WithDetail("Postfix operators are not supported.")
		}
		return nil, bad("operator argument types must be specified")
	}
	if spec.Func == "" {
		return nil, bad("operator function must be specified")
	}
	o := &catalog.Operator{Name: spec.Sig.Name, Kind: 'l', Restrict: spec.Restrict, Join: spec.Join, CanHash: spec.Hashes, CanMerge: spec.Merges}
	var err error
	var types []sqltypes.Type
	if spec.Sig.HasLeft {
		o.Kind = 'b'
		if o.Left, err = typeOf(spec.Sig.Left); err != nil {
			return nil, err
		}
		types = append(types, o.Left)
	}
	if o.Right, err = typeOf(spec.Sig.Right); err != nil {
		return nil, err
	}
	types = append(types, o.Right)
	if o.Name, err = operatorKey(snap, o.Name, true, o.Kind, o.Left, o.Right); err != nil {
		return nil, err
	}
	if o.Func, o.Result, _, err = b.supportFunction(spec.Func, types); err != nil {
		return nil, err
	}
	// The commutator and negator: the operators the names find, else
	// shells to be made where an unqualified name creates (PostgreSQL's
	// get_other_operator).
	others := *spec
	if others.Commutator != "" {
		if others.Commutator, err = otherOperatorKey(snap, others.Commutator, o.Right, o.Left); err != nil {
			return nil, err
		}
	}
	if others.Negator != "" {
		if others.Negator, err = otherOperatorKey(snap, others.Negator, o.Left, o.Right); err != nil {
			return nil, err
		}
	}
	c := *rs
	c.Operator = &others
	x.RoutineStatement, spec = &c, &others
	if o.Kind == 'l' && spec.Commutator != "" {
		return nil, bad("only binary operators can have commutators")
	}
	if (o.CanHash || o.CanMerge || spec.Negator != "") && o.Result.ID != sqltypes.Bool {
		switch {
		case spec.Negator != "":
			return nil, bad("only boolean operators can have negators")
		case o.CanHash:
			return nil, bad("only boolean operators can hash")
		}
		return nil, bad("only boolean operators can merge join")
	}
	if spec.Negator == o.Name {
		return nil, bad("operator cannot be its own negator")
	}
	x.OperDef = o
	return x, nil
}

// operatorKey is the catalog key of the operator a DDL statement names:
// a qualified name's in its schema; a bare one's, when creating, in the
// creation schema (the first of the search path), else the one the
// search path finds of those operands (the bare name when none, which
// the executor reports missing).
func operatorKey(snap *catalog.Snapshot, name string, creating bool, kind byte, left, right sqltypes.Type) (string, error) {
	if schema, bare, ok := splitOperatorName(name); ok {
		if !snap.HasSchema(schema) {
			return "", pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
		}
		return catalog.QualifiedKey(schema, bare), nil
	}
	if creating {
		sc, err := snap.CreationSchema()
		if err != nil {
			return "", err
		}
		return catalog.QualifiedKey(sc, name), nil
	}
	if o := snap.FindOperator(name, kind, left, right); o != nil {
		return o.Name, nil
	}
	return name, nil
}

// otherOperatorKey is the key of a COMMUTATOR or NEGATOR: the infix
// operator of those operands the name finds, else where a shell of it
// goes.
func otherOperatorKey(snap *catalog.Snapshot, name string, left, right sqltypes.Type) (string, error) {
	key, err := operatorKey(snap, name, false, 'b', left, right)
	if err != nil || key != name || strings.IndexByte(name, '.') >= 0 {
		return key, err
	}
	if o := snap.FindOperator(name, 'b', left, right); o != nil {
		return o.Name, nil
	}
	return operatorKey(snap, name, true, 'b', left, right)
}

// bindCastStatement binds CREATE and DROP CAST as PostgreSQL's
// CreateCast checks it.
func bindCastStatement(snap *catalog.Snapshot, rs *parser.RoutineStatement) (ir.Statement, error) {
	b := &Binder{snap: snap, stmt: &parser.Statement{}}
	spec := rs.Cast
	x := &ir.RoutineChange{RoutineStatement: rs}
	source, err := paramType(snap, spec.Source.Type, spec.Source.TypeName)
	if skip, ok := missingTypeSkip(rs, spec.Source, err); ok {
		x.Skipped = append(x.Skipped, skip)
		return x, nil
	}
	if err != nil {
		return nil, err
	}
	target, err := paramType(snap, spec.Target.Type, spec.Target.TypeName)
	if skip, ok := missingTypeSkip(rs, spec.Target, err); ok {
		x.Skipped = append(x.Skipped, skip)
		return x, nil
	}
	if err != nil {
		return nil, err
	}
	c := &catalog.Cast{Source: source, Target: target, Method: spec.Method, Context: spec.Context}
	x.CastDef = c
	if rs.Action == parser.RoutineDrop || rs.Action == parser.RoutineComment {
		return x, nil
	}
	bad := func(format string, args ...any) *pgerr.Error {
		return pgerr.New(pgerr.InvalidObjectDefinition, format, args...)
	}
	if source.OID() == target.OID() {
		return nil, bad("source data type and target data type are the same")
	}
	if source.IsDomain() || target.IsDomain() {
		// PostgreSQL 15 accepts them with a warning that they will be
		// ignored; zproxy refuses rather than keep a cast it never uses.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "casts to or from a domain are not supported")
	}
	switch spec.Method {
	case 'f':
		var types []sqltypes.Type
		if spec.HasFuncArgs {
			if len(spec.FuncArgs) < 1 || len(spec.FuncArgs) > 3 {
				return nil, bad("cast function must take one to three arguments")
			}
			for _, p := range spec.FuncArgs {
				t, err := paramType(snap, p.Type, p.TypeName)
				if err != nil {
					return nil, err
				}
				types = append(types, t)
			}
		} else {
			types = []sqltypes.Type{source}
		}
		ref, ret, _, err := b.supportFunction(spec.Func, types)
		if err != nil {
			return nil, err
		}
		if types[0].OID() != source.OID() {
			return nil, bad("argument of cast function must match or be binary-coercible from source data type")
		}
		if len(types) > 1 && types[1].ID != sqltypes.Int4 {
			return nil, bad("second argument of cast function must be type %s", sqltypes.TypeInt4)
		}
		if len(types) > 2 && types[2].ID != sqltypes.Bool {
			return nil, bad("third argument of cast function must be type %s", sqltypes.TypeBool)
		}
		if ret.OID() != target.OID() && ret.Kind() != target.Kind() {
			return nil, bad("return data type of cast function must match or be binary-coercible to target data type")
		}
		c.Func = ref
	case 'b':
		if source.Enum != nil || target.Enum != nil {
			return nil, bad("enum data types are not binary-compatible")
		}
		if source.Kind() != target.Kind() || source.Kind() != sqltypes.KindText && source.Kind() != sqltypes.KindBytes && source.ID != target.ID {
			return nil, bad("source and target data types are not physically compatible")
		}
	}
	if _, ok := snap.CastBetween(source, target); !ok && builtinCastExists(source, target) {
		return nil, pgerr.New(pgerr.DuplicateObject, "cast from type %s to type %s already exists", source, target)
	}
	return x, nil
}

// builtinCastExists reports whether zproxy converts source to target
// without a user-defined cast (PostgreSQL's pg_cast has a row for it, or
// an I/O conversion of a string type is meant).
func builtinCastExists(source, target sqltypes.Type) bool {
	if source.Enum != nil || target.Enum != nil {
		return false // an enum's casts to text are I/O conversions, not pg_cast rows
	}
	if source.Kind() == sqltypes.KindText || target.Kind() == sqltypes.KindText {
		return false
	}
	return checkCastPair(source, target) == nil && castAllowedAssignment(source, target)
}

// missingTypeSkip is DROP ... IF EXISTS's notice for an object named over
// a type that does not exist (err is resolving p's type): PostgreSQL
// skips the object.
func missingTypeSkip(rs *parser.RoutineStatement, p parser.RoutineParam, err error) (string, bool) {
	if err == nil || !rs.MissingOK || rs.Action != parser.RoutineDrop || pgerr.CodeOf(err) != pgerr.UndefinedObject || p.TypeName == "" {
		return "", false
	}
	return "type \"" + p.TypeName + "\" does not exist, skipping", true
}

// postgresOperatorNames are the names of PostgreSQL 15's built-in
// operators (pg_operator in pg_catalog).
var postgresOperatorNames = func() map[string]bool {
	m := map[string]bool{}
	for _, op := range strings.Fields(`!! !~ !~* !~~ !~~* # ## #- #> #>> % & && &< &<| &> * *< *<= *<> *= *> *>= + - -> ->> -|- / < <-> <<
		<<= <<| <= <> <@ <^ = > >= >> >>= >^ ? ?# ?& ?- ?-| ?| ?|| @ @-@ @> @? @@ @@@ ^ ^@ | |&> |/ |>> || ||/ ~ ~* ~<=~ ~<~ ~= ~>=~ ~>~ ~~ ~~*`) {
		m[op] = true
	}
	return m
}()
