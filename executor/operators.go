package executor

import (
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// CREATE and DROP OPERATOR and CAST, computed on the schema as the change
// commits.

// findOperator is the operator of that name and operand types.
func findOperator(s *catalog.Snapshot, name string, kind byte, left, right sqltypes.Type) *catalog.Operator {
	for _, o := range s.Operators(name) {
		if o.SameOperands(kind, left, right) {
			return o
		}
	}
	return nil
}

// operatorChange computes CREATE or DROP OPERATOR of x on s.
func operatorChange(s *catalog.Snapshot, version uint64, x *ir.RoutineChange, who RoutineActor) (catalog.Change, []*pgerr.Error, error) {
	var ch catalog.Change
	if x.Action == parser.RoutineOwner || x.Action == parser.RoutineRename || x.Action == parser.RoutineComment {
		sig := x.DropOps[0]
		o := findOperator(s, sig.Name, sig.Kind, sig.Left, sig.Right)
		if o == nil {
			return ch, nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", operatorText(&sig))
		}
		if !who.Super && o.Owner != who.User && !s.IsMemberOf(who.User, o.Owner) {
			return ch, nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of operator %s", o.Name)
		}
		if x.Action == parser.RoutineRename {
			// SET SCHEMA (the binder checked the schema exists).
			c := *o
			c.Name = catalog.QualifiedKey(x.NewName, o.Bare())
			if c.Name == o.Name {
				return ch, nil, errSkip
			}
			if findOperator(s, c.Name, o.Kind, o.Left, o.Right) != nil {
				return ch, nil, pgerr.New(pgerr.DuplicateObject, "operator %s already exists in schema \"%s\"", o.Description(), x.NewName)
			}
			return catalog.Change{PutOperators: []*catalog.Operator{&c}}, nil, nil
		}
		if x.Action == parser.RoutineComment {
			c := *o
			c.Comment = x.Comment
			return catalog.Change{PutOperators: []*catalog.Operator{&c}}, nil, nil
		}
		if !roleExists(s, x.NewName) {
			return ch, nil, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", x.NewName)
		}
		c := *o
		c.Owner = x.NewName
		return catalog.Change{PutOperators: []*catalog.Operator{&c}}, nil, nil
	}
	if x.Action == parser.RoutineDrop {
		var notes []*pgerr.Error
		for _, sig := range x.DropOps {
			o := findOperator(s, sig.Name, sig.Kind, sig.Left, sig.Right)
			if o == nil {
				if x.MissingOK {
					notes = append(notes, pgerr.Notice("operator %s does not exist, skipping", sig.Name))
					continue
				}
				return ch, nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", operatorText(&sig))
			}
			if !who.Super && o.Owner != who.User && !s.IsMemberOf(who.User, o.Owner) {
				return ch, nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of operator %s", o.Name)
			}
			ch.DeleteOperators = append(ch.DeleteOperators, o.OID)
			// The operators that named it as commutator or negator
			// forget it, as PostgreSQL's RemoveOperatorById does.
			for _, other := range s.AllOperators() {
				if other.OID != o.OID && (other.Commutator == o.OID || other.Negator == o.OID) {
					c := *other
					if c.Commutator == o.OID {
						c.Commutator = 0
					}
					if c.Negator == o.OID {
						c.Negator = 0
					}
					ch.PutOperators = append(ch.PutOperators, &c)
				}
			}
		}
		if len(ch.DeleteOperators) == 0 {
			return ch, notes, errSkip
		}
		// An operator dropped with the one it named stays dropped.
		ch.PutOperators = slices.DeleteFunc(ch.PutOperators, func(o *catalog.Operator) bool { return slices.Contains(ch.DeleteOperators, o.OID) })
		return ch, notes, nil
	}
	o := *x.OperDef
	o.Owner = who.User
	next := 0
	newOID := func() uint32 {
		oid := pgcatalog.ObjectOID(catalog.ObjectID(version, next), 0)
		next++
		return oid
	}
	if old := findOperator(s, o.Name, o.Kind, o.Left, o.Right); old != nil {
		if !old.Shell() {
			return ch, nil, pgerr.New(pgerr.DuplicateFunction, "operator %s already exists", o.Name)
		}
		// Filling a shell: its links are the new definition's, as
		// PostgreSQL's OperatorCreate replaces the shell's row (the
		// operator that named it keeps its own link).
		o.OID = old.OID
	} else {
		o.OID = newOID()
	}
	puts := map[uint32]*catalog.Operator{}
	// link names the commutator (operands swapped) or negator of o,
	// making a shell of it when it does not exist, and points it back.
	link := func(name string, commutator bool) uint32 {
		left, right := o.Left, o.Right
		if commutator {
			left, right = right, left
		}
		if commutator && name == o.Name && left.OID() == o.Left.OID() && right.OID() == o.Right.OID() {
			return o.OID
		}
		other := findOperator(s, name, 'b', left, right)
		var c catalog.Operator
		if other != nil {
			c = *other
		} else {
			c = catalog.Operator{OID: newOID(), Name: name, Owner: who.User, Kind: 'b', Left: left, Right: right}
		}
		if p, ok := puts[c.OID]; ok {
			c = *p
		}
		if commutator && c.Commutator == 0 {
			c.Commutator = o.OID
		}
		if !commutator && c.Negator == 0 {
			c.Negator = o.OID
		}
		puts[c.OID] = &c
		return c.OID
	}
	spec := x.Operator
	if spec.Commutator != "" {
		o.Commutator = link(spec.Commutator, true)
	}
	if spec.Negator != "" {
		o.Negator = link(spec.Negator, false)
	}
	ch.PutOperators = append(ch.PutOperators, &o)
	for _, p := range puts {
		if p.OID != o.OID {
			ch.PutOperators = append(ch.PutOperators, p)
		}
	}
	slices.SortFunc(ch.PutOperators[1:], func(a, b *catalog.Operator) int { return int(a.OID) - int(b.OID) })
	return ch, nil, nil
}

// castChange computes CREATE or DROP CAST of x on s.
func castChange(s *catalog.Snapshot, version uint64, x *ir.RoutineChange) (catalog.Change, []*pgerr.Error, error) {
	c := *x.CastDef
	old, exists := s.CastBetween(c.Source, c.Target)
	if x.Action == parser.RoutineComment {
		if !exists {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "cast from type %s to type %s does not exist", c.Source, c.Target)
		}
		commented := *old
		commented.Comment = x.Comment
		return catalog.Change{PutCasts: []*catalog.Cast{&commented}}, nil, nil
	}
	if x.Action == parser.RoutineDrop {
		if !exists {
			if x.MissingOK {
				return catalog.Change{}, []*pgerr.Error{pgerr.Notice("cast from type %s to type %s does not exist, skipping", c.Source, c.Target)}, errSkip
			}
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "cast from type %s to type %s does not exist", c.Source, c.Target)
		}
		return catalog.Change{DeleteCasts: []uint32{old.OID}}, nil, nil
	}
	if exists {
		return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateObject, "cast from type %s to type %s already exists", c.Source, c.Target)
	}
	c.OID = pgcatalog.ObjectOID(catalog.ObjectID(version, 0), 0)
	return catalog.Change{PutCasts: []*catalog.Cast{&c}}, nil, nil
}

// dependentsOfFunction handles the aggregates, operators and casts that
// call fn when fn is dropped: 2BP01 unless cascade, else they go too,
// with a notice each.
func dependentsOfFunction(s *catalog.Snapshot, fn *catalog.Function, cascade bool, ch *catalog.Change) ([]*pgerr.Error, error) {
	var deps []string
	for _, f := range s.AllFunctions() {
		if f.Aggregate != nil && f.OID != fn.OID && f.Aggregate.UsesFunction(fn.OID) {
			deps = append(deps, "function "+sigNoSpace(f))
			if cascade && !slices.Contains(ch.DeleteFunctions, f.OID) {
				ch.DeleteFunctions = append(ch.DeleteFunctions, f.OID)
			}
		}
	}
	for _, o := range s.AllOperators() {
		if o.Func.OID == fn.OID && fn.OID != 0 {
			deps = append(deps, "operator "+o.Description())
			if cascade {
				ch.DeleteOperators = append(ch.DeleteOperators, o.OID)
			}
		}
	}
	for _, c := range s.Casts() {
		if c.Func.OID == fn.OID && fn.OID != 0 {
			deps = append(deps, "cast from "+c.Source.String()+" to "+c.Target.String())
			if cascade {
				ch.DeleteCasts = append(ch.DeleteCasts, c.OID)
			}
		}
	}
	if len(deps) == 0 {
		return nil, nil
	}
	what := sigNoSpace(fn)
	if !cascade {
		detail := ""
		for i, d := range deps {
			if i > 0 {
				detail += "\n"
			}
			detail += d + " depends on function " + what
		}
		return nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop function %s because other objects depend on it", what).
			WithDetail("%s", detail).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	var notes []*pgerr.Error
	for _, d := range deps {
		notes = append(notes, pgerr.Notice("drop cascades to %s", d))
	}
	return notes, nil
}

// operatorText is an operator with its operand types, as "operator does
// not exist" prints it.
func operatorText(o *catalog.Operator) string {
	if o.Kind == 'l' {
		return sqltypes.OperatorCallName(o.Name, o.Right)
	}
	return sqltypes.OperatorCallName(o.Name, o.Left, o.Right)
}

// typeObjectDependents are the user-defined casts and operators over the
// type u, as DROP TYPE's 2BP01 lists them.
func typeObjectDependents(s *catalog.Snapshot, u *catalog.UserType) []string {
	var lines []string
	on := " depends on type " + sqltypes.QuoteTypeKey(u.Name)
	for _, c := range s.Casts() {
		if c.Source.OID() == u.OID || c.Target.OID() == u.OID {
			lines = append(lines, "cast from "+c.Source.String()+" to "+c.Target.String()+on)
		}
	}
	for _, o := range s.AllOperators() {
		if o.Kind == 'b' && o.Left.OID() == u.OID || o.Right.OID() == u.OID || o.Result.OID() == u.OID && !o.Shell() {
			lines = append(lines, "operator "+o.Description()+on)
		}
	}
	return lines
}
