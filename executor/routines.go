package executor

import (
	"context"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// RoutineActor is who runs a routine statement: the role (owner of what
// it creates) and whether it is a superuser (who may change any routine).
type RoutineActor struct {
	User  string
	Super bool
}

// ChangeRoutine applies CREATE, ALTER or DROP FUNCTION or PROCEDURE to the
// catalog, resolving the routines it names on the schema as the change
// commits.
func (e *Executor) ChangeRoutine(ctx context.Context, cat *catalog.Catalog, x *ir.RoutineChange, who RoutineActor, notice func(*pgerr.Error)) error {
	return updateWithNotices(ctx, cat, func(s *catalog.Snapshot, version uint64) (catalog.Change, []*pgerr.Error, error) {
		return routineChange(s, version, x, who)
	}, notice)
}

// routineKind is "function" or "procedure".
func routineKind(proc bool) string {
	if proc {
		return "procedure"
	}
	return "function"
}

// identity is the argument types that identify fn: its inputs (a
// procedure's OUT parameters too).
func identity(fn *catalog.Function) []sqltypes.Type {
	var out []sqltypes.Type
	for _, p := range fn.Params {
		if p.IsInput() || fn.Procedure() && p.Mode == 'o' {
			out = append(out, p.Type)
		}
	}
	return out
}

func sameTypes(a, b []sqltypes.Type) bool {
	return slices.EqualFunc(a, b, func(x, y sqltypes.Type) bool { return x.OID() == y.OID() })
}

// signature is name(type, ...) as PostgreSQL's messages print a routine.
func signature(name string, types []sqltypes.Type) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = t.String()
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// findRoutine resolves a DROP's or ALTER's reference: by name and
// argument types when they are given, else by name alone (which must then
// be unique). nil, nil when there is none.
// RoutinesNamed are the routines of snapshot s a routine statement's
// references name (those found; an ambiguous or missing one is the
// statement's own error to report).
func RoutinesNamed(s *catalog.Snapshot, x *ir.RoutineChange) []*catalog.Function {
	var out []*catalog.Function
	for i, ref := range x.Refs {
		if fn, err := findRoutine(s, ref, x.RefArgs[i], x.Procedure); err == nil && fn != nil {
			out = append(out, fn)
		}
	}
	return out
}

func findRoutine(s *catalog.Snapshot, ref parser.RoutineRef, args []sqltypes.Type, proc bool) (*catalog.Function, error) {
	fns := s.FunctionsByKey(ref.Name)
	if !ref.HasArgs {
		switch len(fns) {
		case 0:
			return nil, nil
		case 1:
			return fns[0], nil
		}
		return nil, pgerr.New(pgerr.AmbiguousFunction, "%s name \"%s\" is not unique", routineKind(proc), ref.Name).
			WithHint("Specify the argument list to select the %s unambiguously.", routineKind(proc))
	}
	for _, fn := range fns {
		id := identity(fn)
		if !proc && fn.Procedure() {
			id = fn.InputTypes() // a procedure named by DROP FUNCTION: its inputs
		}
		if sameTypes(id, args) || proc && sameTypes(fn.InputTypes(), args) {
			return fn, nil
		}
	}
	return nil, nil
}

// routineChange computes the change of x on s, with the notices of DROP
// ... IF EXISTS that skipped a routine.
func routineChange(s *catalog.Snapshot, version uint64, x *ir.RoutineChange, who RoutineActor) (catalog.Change, []*pgerr.Error, error) {
	if len(x.Skipped) > 0 {
		// DROP ... IF EXISTS of objects over types that do not exist.
		var skipped []*pgerr.Error
		for _, s := range x.Skipped {
			skipped = append(skipped, pgerr.Notice("%s", s))
		}
		if len(x.Refs)+len(x.DropOps) == 0 && (x.Cast == nil || x.CastDef == nil) {
			return catalog.Change{}, skipped, errSkip
		}
		ch, notes, err := changeOf(s, version, x, who)
		return ch, append(skipped, notes...), err
	}
	return changeOf(s, version, x, who)
}

// changeOf computes the change of x on s.
func changeOf(s *catalog.Snapshot, version uint64, x *ir.RoutineChange, who RoutineActor) (catalog.Change, []*pgerr.Error, error) {
	switch {
	case x.Operator != nil:
		return operatorChange(s, version, x, who)
	case x.Cast != nil:
		return castChange(s, version, x)
	}
	kind := routineKind(x.Procedure)
	if x.Aggregate != nil {
		kind = "aggregate"
	}
	mustOwn := func(fn *catalog.Function) error {
		if !who.Super && fn.Owner != who.User && !s.IsMemberOf(who.User, fn.Owner) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", routineKind(fn.Procedure()), fn.Name)
		}
		return nil
	}
	if x.Action == parser.RoutineCreate {
		return createRoutine(s, version, x, who, mustOwn)
	}
	var ch catalog.Change
	var notes []*pgerr.Error
	if len(x.AllIn) > 0 {
		return grantInSchemas(s, x, mustOwn)
	}
	for i, ref := range x.Refs {
		fn, err := findRoutine(s, ref, x.RefArgs[i], x.Procedure)
		if err != nil {
			return ch, nil, err
		}
		what := ref.Name
		if ref.HasArgs {
			what = signature(ref.Name, x.RefArgs[i])
		}
		if fn == nil {
			if x.Action == parser.RoutineDrop && x.MissingOK {
				notes = append(notes, pgerr.Notice("%s %s does not exist, skipping", kind, what))
				continue
			}
			if ref.HasArgs {
				return ch, nil, pgerr.New(pgerr.UndefinedFunction, "%s %s does not exist", kind, what)
			}
			return ch, nil, pgerr.New(pgerr.UndefinedFunction, "could not find a %s named \"%s\"", kind, ref.Name)
		}
		if err := checkAggregateKind(fn, x); err != nil {
			return ch, nil, err
		}
		if fn.Procedure() != x.Procedure && !(x.Action == parser.RoutineGrant && !x.Procedure) && !x.EitherKind {
			not := "function"
			if x.Procedure {
				not = "procedure"
			}
			return ch, nil, pgerr.New(pgerr.WrongObjectType, "%s is not a %s", signature(fn.Name, identity(fn)), not)
		}
		if err := mustOwn(fn); err != nil {
			return ch, nil, err
		}
		if x.Action == parser.RoutineDrop {
			put, notes2, err := dropTriggersOf(s, fn, x.Cascade, ch.Put)
			if err != nil {
				return ch, nil, err
			}
			ch.Put, notes = put, append(notes, notes2...)
			views, notes3, err := dropViewTriggersOf(s, fn, x.Cascade, ch.PutViews)
			if err != nil {
				return ch, nil, err
			}
			ch.PutViews, notes = views, append(notes, notes3...)
			notes4, err := dependentsOfFunction(s, fn, x.Cascade, &ch)
			if err != nil {
				return ch, nil, err
			}
			notes = append(notes, notes4...)
			if !slices.Contains(ch.DeleteFunctions, fn.OID) {
				ch.DeleteFunctions = append(ch.DeleteFunctions, fn.OID)
			}
			continue
		}
		c := fn.Clone()
		switch x.Action {
		case parser.RoutineRename:
			for _, other := range s.FunctionsByKey(x.NewName) {
				if sameTypes(identity(other), identity(fn)) {
					sc, name := catalog.SplitName(x.NewName)
					return ch, nil, pgerr.New(pgerr.DuplicateFunction, "%s %s already exists in schema \"%s\"", kind, signature(name, identity(fn)), sc)
				}
			}
			c.Name = x.NewName
		case parser.RoutineGrant:
			if err := grantExecute(s, c, x); err != nil {
				return ch, nil, err
			}
		case parser.RoutineComment:
			c.Comment = x.Comment
		case parser.RoutineOwner:
			if !roleExists(s, x.NewName) {
				return ch, nil, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", x.NewName)
			}
			c.Owner = x.NewName
		case parser.RoutineAlter:
			if x.Procedure && (x.Options.Volatility != 0 || x.Options.Strict != nil) {
				return ch, nil, pgerr.New(pgerr.InvalidFunctionDefinition, "invalid attribute in procedure definition")
			}
			ir.ApplyRoutineOptions(c, x.Options)
			for _, r := range x.Options.Reset {
				if r == "all" {
					c.Config = nil
					continue
				}
				c.Config = catalog.ConfigReset(c.Config, r)
			}
		}
		ch.PutFunctions = append(ch.PutFunctions, c)
	}
	if len(ch.PutFunctions)+len(ch.DeleteFunctions)+len(ch.DeleteOperators)+len(ch.DeleteCasts) == 0 {
		return ch, notes, errSkip
	}
	return ch, notes, nil
}

// extensionDuplicate is the error of creating, in public, a function of
// an extension's name and parameters (PostgreSQL keeps the extension's
// functions there): 42723 as for any duplicate, and 0A000 for OR
// REPLACE, which PostgreSQL lets replace the extension's function and
// zproxy, whose extensions are built in, cannot.
func extensionDuplicate(key string, fn *catalog.Function, replace bool) error {
	if strings.IndexByte(key, '.') >= 0 || pgcatalog.CoreFunction(key) || fn.IsAggregate() || !builtins.HasOverload(key, identity(fn)) {
		return nil
	}
	if replace {
		return pgerr.New(pgerr.FeatureNotSupported, "%s is an extension's function built into zproxy and cannot be replaced", signature(key, identity(fn)))
	}
	return pgerr.New(pgerr.DuplicateFunction, "%s \"%s\" already exists with same argument types", routineKind(fn.Procedure()), key)
}

// createRoutine is CREATE [OR REPLACE] FUNCTION | PROCEDURE.
func createRoutine(s *catalog.Snapshot, version uint64, x *ir.RoutineChange, who RoutineActor, mustOwn func(*catalog.Function) error) (catalog.Change, []*pgerr.Error, error) {
	name := x.Routine().Name
	fn := x.Function(who.User)
	if x.Procedure && (x.Options.Volatility != 0 || x.Options.Strict != nil) {
		return catalog.Change{}, nil, pgerr.New(pgerr.InvalidFunctionDefinition, "invalid attribute in procedure definition")
	}
	if len(name) > 63 {
		return catalog.Change{}, nil, pgerr.New(pgerr.NameTooLong, "function name \"%s\" is too long", name)
	}
	if err := extensionDuplicate(name, fn, x.Replace); err != nil {
		return catalog.Change{}, nil, err
	}
	for _, old := range s.FunctionsByKey(name) {
		if !sameTypes(identity(old), identity(fn)) {
			continue
		}
		if !x.Replace {
			return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateFunction, "%s \"%s\" already exists with same argument types", routineKind(old.Procedure()), name)
		}
		if err := mustOwn(old); err != nil {
			return catalog.Change{}, nil, err
		}
		if old.Procedure() != fn.Procedure() || old.IsAggregate() != fn.IsAggregate() {
			what := routineKind(old.Procedure())
			if old.IsAggregate() {
				what = "aggregate function"
			}
			return catalog.Change{}, nil, pgerr.New(pgerr.WrongObjectType, "cannot change routine kind").
				WithDetail("\"%s\" is a %s.", name, what)
		}
		if fn.IsAggregate() {
			if old.Result.OID() != fn.Result.OID() {
				return catalog.Change{}, nil, pgerr.New(pgerr.InvalidFunctionDefinition, "cannot change return type of existing function").
					WithHint("Use DROP AGGREGATE %s first.", signature(name, identity(old)))
			}
			fn.OID, fn.Owner, fn.PublicRevoked, fn.Grantees, fn.Comment = old.OID, old.Owner, old.PublicRevoked, old.Grantees, old.Comment
			return catalog.Change{PutFunctions: []*catalog.Function{fn}}, nil, nil
		}
		drop := "Use DROP " + strings.ToUpper(routineKind(old.Procedure())) + " " + signature(name, identity(old)) + " first."
		if old.Result.OID() != fn.Result.OID() || old.ReturnsSet != fn.ReturnsSet {
			return catalog.Change{}, nil, pgerr.New(pgerr.InvalidFunctionDefinition, "cannot change return type of existing function").WithHint("%s", drop)
		}
		oldIn, newIn := old.Inputs(), fn.Inputs()
		for i := range oldIn {
			if oldIn[i].Name != "" && oldIn[i].Name != newIn[i].Name {
				return catalog.Change{}, nil, pgerr.New(pgerr.InvalidFunctionDefinition, "cannot change name of input parameter \"%s\"", oldIn[i].Name).WithHint("%s", drop)
			}
		}
		if !slices.EqualFunc(old.Outputs(), fn.Outputs(), func(a, b catalog.FuncParam) bool { return a.Name == b.Name && a.Type.OID() == b.Type.OID() }) {
			return catalog.Change{}, nil, pgerr.New(pgerr.InvalidFunctionDefinition, "cannot change return type of existing function").
				WithDetail("Row type defined by OUT parameters is different.").WithHint("%s", drop)
		}
		if old.Defaults() > fn.Defaults() {
			return catalog.Change{}, nil, pgerr.New(pgerr.InvalidFunctionDefinition, "cannot remove parameter defaults from existing function").WithHint("%s", drop)
		}
		fn.OID, fn.Owner, fn.PublicRevoked, fn.Grantees, fn.Comment = old.OID, old.Owner, old.PublicRevoked, old.Grantees, old.Comment
		return catalog.Change{PutFunctions: []*catalog.Function{fn}}, nil, nil
	}
	fn.OID = pgcatalog.ObjectOID(catalog.ObjectID(version, 0), 0)
	return catalog.Change{PutFunctions: []*catalog.Function{fn}}, nil, nil
}

// grantExecute applies GRANT or REVOKE EXECUTE of x to fn: PUBLIC's
// default privilege is revoked or granted back, a role's is added or
// removed.
func grantExecute(s *catalog.Snapshot, fn *catalog.Function, x *ir.RoutineChange) error {
	for _, g := range x.Grantees {
		if g == catalog.PublicRole {
			fn.PublicRevoked = x.Revoke
			continue
		}
		g = strings.Trim(g, `"`)
		if !roleExists(s, g) {
			return pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", g)
		}
		fn.Grantees = slices.DeleteFunc(fn.Grantees, func(r string) bool { return r == g })
		if !x.Revoke && g != fn.Owner {
			fn.Grantees = append(fn.Grantees, g)
		}
	}
	return nil
}

// grantInSchemas runs GRANT | REVOKE EXECUTE ON ALL FUNCTIONS |
// PROCEDURES | ROUTINES IN SCHEMA: every such routine of the schemas at
// this moment, each as if named (routines created later are not
// affected, as in PostgreSQL; ALTER DEFAULT PRIVILEGES is for those).
func grantInSchemas(s *catalog.Snapshot, x *ir.RoutineChange, mustOwn func(*catalog.Function) error) (catalog.Change, []*pgerr.Error, error) {
	var ch catalog.Change
	var fns []*catalog.Function
	for _, schema := range x.AllIn {
		if !s.HasSchema(schema) {
			return ch, nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
		}
		fns = append(fns, s.SchemaFunctions(schema)...)
	}
	for _, fn := range fns {
		switch x.AllKind {
		case "functions":
			if fn.Procedure() {
				continue
			}
		case "procedures":
			if !fn.Procedure() {
				continue
			}
		}
		if err := mustOwn(fn); err != nil {
			return ch, nil, err
		}
		c := fn.Clone()
		if err := grantExecute(s, c, x); err != nil {
			return ch, nil, err
		}
		ch.PutFunctions = append(ch.PutFunctions, c)
	}
	if len(ch.PutFunctions) == 0 {
		return ch, nil, errSkip
	}
	return ch, nil, nil
}

// dropViewTriggersOf is dropTriggersOf for views' triggers.
func dropViewTriggersOf(s *catalog.Snapshot, fn *catalog.Function, cascade bool, put []*catalog.View) ([]*catalog.View, []*pgerr.Error, error) {
	var notes []*pgerr.Error
	for _, v := range s.Views() {
		uses := false
		for _, tg := range v.Triggers {
			if tg.Function != fn.OID {
				continue
			}
			if err := triggerDependsOn(fn, tg, "view", v.Name, cascade); err != nil {
				return nil, nil, err
			}
			notes = append(notes, pgerr.Notice("drop cascades to trigger %s on view %s", tg.Name, v.Name))
			uses = true
		}
		if !uses {
			continue
		}
		i := slices.IndexFunc(put, func(p *catalog.View) bool { return p.Name == v.Name })
		if i < 0 {
			nv := *v
			put, i = append(put, &nv), len(put)
		}
		put[i].Triggers = slices.DeleteFunc(slices.Clone(put[i].Triggers), func(tg *catalog.Trigger) bool { return tg.Function == fn.OID })
	}
	return put, notes, nil
}

// triggerDependsOn is DROP FUNCTION's 2BP01 for a trigger on a relation
// (of kind "table" or "view") executing fn, unless cascade.
func triggerDependsOn(fn *catalog.Function, tg *catalog.Trigger, kind, rel string, cascade bool) error {
	if cascade {
		return nil
	}
	return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop function %s because other objects depend on it", signature(fn.Name, identity(fn))).
		WithDetail("trigger %s on %s %s depends on function %s", tg.Name, kind, rel, signature(fn.Name, identity(fn))).
		WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
}

// dropTriggersOf handles the triggers that execute fn when it is dropped:
// 2BP01 unless cascade, else the triggers go too (put are the tables the
// change rewrites already, which it extends).
func dropTriggersOf(s *catalog.Snapshot, fn *catalog.Function, cascade bool, put []*catalog.Table) ([]*catalog.Table, []*pgerr.Error, error) {
	var notes []*pgerr.Error
	for _, t := range s.Tables() {
		uses := false
		for _, tg := range t.Triggers {
			if tg.Function != fn.OID {
				continue
			}
			if err := triggerDependsOn(fn, tg, "table", t.Name, cascade); err != nil {
				return nil, nil, err
			}
			notes = append(notes, pgerr.Notice("drop cascades to trigger %s on table %s", tg.Name, t.Name))
			uses = true
		}
		if !uses {
			continue
		}
		i := slices.IndexFunc(put, func(p *catalog.Table) bool { return p.Name == t.Name })
		if i < 0 {
			put, i = append(put, t.Clone()), len(put)
		}
		put[i].Triggers = slices.DeleteFunc(put[i].Triggers, func(tg *catalog.Trigger) bool { return tg.Function == fn.OID })
	}
	return put, notes, nil
}
