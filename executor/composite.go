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

// Composite types (CREATE TYPE name AS (...), ALTER TYPE ... ADD, DROP
// and RENAME ATTRIBUTE). A composite type takes a catalog ID as an enum
// does: its pg_type OIDs are the ID's row type slots and its pg_class OID
// (typrelid) the ID's relation slot. Stored values of a composite column
// are their record text, which lists the fields in order: ADD ATTRIBUTE
// appends one (a value stored before reads it as NULL, as PostgreSQL's
// shorter tuples do); DROP ATTRIBUTE of a type a stored column has would
// shift the fields of stored values and is refused with 0A000.

// isCompositeAction reports whether x is a composite type's statement.
func isCompositeAction(x *ir.TypeChange) bool {
	switch x.Action {
	case parser.TypeCreateComposite, parser.TypeAddAttribute, parser.TypeDropAttribute, parser.TypeRenameAttribute:
		return true
	}
	return false
}

// compositeChange computes the catalog change of a composite type's
// statement x on s.
func compositeChange(s *catalog.Snapshot, version uint64, x *ir.TypeChange, owner string) (catalog.Change, *pgerr.Error, error) {
	name := x.Names[0]
	if x.Action == parser.TypeCreateComposite {
		if err := checkTypeNameFree(s, name); err != nil {
			return catalog.Change{}, nil, err
		}
		id := catalog.ObjectID(version, 0)
		c := &sqltypes.CompositeType{Name: name, OID: pgcatalog.TypeOID(id), ArrayOID: pgcatalog.TypeArrayOID(id), RelID: pgcatalog.ObjectOID(id, 0)}
		for i, a := range x.Attrs {
			if _, dup := c.Field(a.Name); dup {
				return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", a.Name)
			}
			c.Fields = append(c.Fields, sqltypes.CompositeField{Name: a.Name, Type: x.AttrTypes[i]})
		}
		u := &catalog.UserType{Name: name, OID: c.OID, ArrayOID: c.ArrayOID, Owner: owner, Composite: c}
		return catalog.Change{PutTypes: []*catalog.UserType{u}}, nil, nil
	}
	cur, ok := s.UserTypeByKey(name)
	if !ok {
		return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	}
	if cur.Composite == nil {
		return catalog.Change{}, nil, pgerr.New(pgerr.WrongObjectType, "%s is not a composite type", sqltypes.QuoteTypeKey(name))
	}
	u := cur.Clone()
	c := u.Composite
	switch x.Action {
	case parser.TypeAddAttribute:
		a := x.Attrs[0]
		if _, dup := c.Field(a.Name); dup {
			return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", a.Name, name)
		}
		c.Fields = append(c.Fields, sqltypes.CompositeField{Name: a.Name, Type: x.AttrTypes[0]})
	case parser.TypeDropAttribute:
		i, found := c.Field(x.Value)
		if !found {
			if x.MissingOK {
				return catalog.Change{}, pgerr.Notice("column \"%s\" of relation \"%s\" does not exist, skipping", x.Value, name), errSkip
			}
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", x.Value, name)
		}
		if t, col, ok := storedIn(s, c.OID); ok {
			return catalog.Change{}, nil, pgerr.New(pgerr.FeatureNotSupported, "cannot drop an attribute of type %s while column %s.%s stores it",
				sqltypes.QuoteTypeKey(name), t.Name, t.Columns[col].Name).
				WithHint("zproxy stores a composite value's fields in order; drop or change the column first.")
		}
		c.Fields = slices.Delete(c.Fields, i, i+1)
	case parser.TypeRenameAttribute:
		i, found := c.Field(x.Value)
		if !found {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", x.Value)
		}
		if _, dup := c.Field(x.NewName); dup {
			return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", x.NewName, name)
		}
		c.Fields[i].Name = x.NewName
	}
	return catalog.Change{PutTypes: []*catalog.UserType{u}}, nil, nil
}

// storedIn finds a table column that stores values of the composite
// type oid: of the type, an array of it, or a composite type holding it
// (at any depth).
func storedIn(s *catalog.Snapshot, oid uint32) (*catalog.Table, int, bool) {
	holders := map[uint32]bool{oid: true}
	for grown := true; grown; {
		grown = false
		for _, u := range s.UserTypes() {
			if u.Composite == nil || holders[u.OID] {
				continue
			}
			for _, f := range u.Composite.Fields {
				if holders[f.Type.UDT()] {
					holders[u.OID], grown = true, true
					break
				}
			}
		}
	}
	for _, t := range s.Tables() {
		for i, c := range t.Columns {
			if holders[c.Type.UDT()] {
				return t, i, true
			}
		}
	}
	return nil, 0, false
}

// compositeDependents lists the composite types with an attribute of the
// user-defined type u (other than those being dropped) and the functions
// taking or returning a composite u, as DROP TYPE's DETAIL names them.
func compositeDependents(s *catalog.Snapshot, u *catalog.UserType, dropping []string) []string {
	var lines []string
	if u.Composite != nil {
		for _, fn := range s.AllFunctions() {
			uses := fn.Result.UDT() == u.OID
			for _, p := range fn.Params {
				uses = uses || p.Type.UDT() == u.OID
			}
			if uses {
				lines = append(lines, "function "+signature(fn.Name, identity(fn))+" depends on type "+sqltypes.QuoteTypeKey(u.Name))
			}
		}
	}
	for _, o := range s.UserTypes() {
		if o.Composite == nil || slices.Contains(dropping, o.Name) {
			continue
		}
		for _, f := range o.Composite.Fields {
			if f.Type.UDT() == u.OID {
				lines = append(lines, "column "+f.Name+" of composite type "+o.Name+" depends on type "+sqltypes.QuoteTypeKey(u.Name))
				break
			}
		}
	}
	return lines
}
