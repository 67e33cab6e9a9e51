package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// TypeChange is CREATE TYPE ... AS ENUM, ALTER TYPE or DROP TYPE, or
// CREATE, ALTER or DROP DOMAIN: the executor applies the parsed statement
// to the catalog as it is when the change commits (executor.ChangeType).
type TypeChange struct {
	*parser.TypeStatement
	// Base is CREATE DOMAIN's base type, resolved by the binder.
	Base sqltypes.Type
	// AttrTypes are the types of a composite type's Attrs, resolved by
	// the binder.
	AttrTypes []sqltypes.Type
	// RangeDef is CREATE TYPE ... AS RANGE's definition as the binder
	// checked it (subtype, functions, operator class, collation); the
	// executor gives it its names and OIDs.
	RangeDef *sqltypes.RangeType
}

// Kind implements Statement.
func (*TypeChange) Kind() string { return "type" }

// Describe implements Statement: creating a type needs CREATE on its
// schema; changing or dropping one, its ownership.
func (x *TypeChange) Describe() Description {
	kind := "TYPE"
	if x.Domain {
		kind = "DOMAIN"
	}
	switch x.Action {
	case parser.TypeCreateEnum, parser.TypeCreateDomain, parser.TypeCreateComposite, parser.TypeCreateRange:
		d := ddl()
		d.CreatesIn = catalog.PublicSchema
		if len(x.Names) > 0 {
			d.CreatesIn, _ = catalog.SplitName(x.Names[0]) // the key's schema (planner/schemas.go)
		}
		return d.tagged("CREATE " + kind)
	case parser.TypeDrop:
		return ddl(refs(ObjectType, x.Names...)...).tagged("DROP " + kind)
	case parser.TypeComment, parser.DomainCommentConstraint:
		return ddl(refs(ObjectType, x.Names...)...).tagged("COMMENT")
	}
	d := ddl(refs(ObjectType, x.Names...)...)
	if x.SetSchema {
		d.CreatesIn, _ = catalog.SplitName(x.NewName)
	}
	return d.tagged("ALTER " + kind)
}
